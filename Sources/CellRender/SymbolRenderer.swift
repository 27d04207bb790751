import CHarfBuzz
import CellKit

/// Rasterises catalogue symbols into coverage masks. `TextEngine.symbolMask` caches them next
/// to the glyphs they are made of, so every compositor sharing the engine shares them.
struct SymbolRenderer {
    let textEngine: TextEngine

    /// Whether `name` is in the catalogue (unknown names draw the missing-symbol box).
    static func isKnown(_ name: String) -> Bool { SymbolCatalog.parts(named: name) != nil }

    /// The symbol's width in symbol heights. A glyph symbol is drawn with its ink fitting the
    /// symbol's square, so its width is the glyph's advance at that scale (advance over the
    /// ink's larger side); a drawn symbol's is the catalogue's. Caller holds the text engine's lock.
    func width(named name: String) -> Double {
        guard let scalar = SymbolCatalog.glyphScalar(named: name) else { return SymbolCatalog.drawnWidth(named: name) }
        let face = textEngine.face(bold: false)
        var extents = hb_glyph_extents_t()
        guard let glyph = face.glyph(for: scalar), hb_font_get_glyph_extents(face.hbFont, glyph, &extents) != 0,
              extents.height != 0 else { return 1 }
        return Double(hb_font_get_glyph_h_advance(face.hbFont, glyph)) / Double(max(abs(extents.width), abs(extents.height)))
    }

    /// A mask `width` × `height` pixels: the symbol's parts scaled by its height, so a wide symbol
    /// keeps round dots and even strokes. Caller holds the text engine's lock.
    func mask(name: String, width: Int, height: Int, weight: FontWeight) -> CoverageMask {
        let mask = CoverageMask(width: width, height: height)
        let parts = SymbolCatalog.parts(named: name) ?? SymbolCatalog.missing
        let d = Double(height)
        let lw = max(1, SymbolCatalog.lineWidth(weight) * d)
        var coverage = [Double](repeating: 0, count: width * height)
        func plot(_ x: Int, _ y: Int, _ c: Double) {
            guard x >= 0, y >= 0, x < width, y < height, c > 0 else { return }
            coverage[y * width + x] = max(coverage[y * width + x], min(1, c))
        }
        func pixelRect(_ r: UnitRect) -> (Double, Double, Double, Double) { (r.x * d, r.y * d, r.width * d, r.height * d) }
        func forEachPixel(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ body: (Int, Int) -> Void) {
            let x0 = max(0, Int((x - 1).rounded(.down))), y0 = max(0, Int((y - 1).rounded(.down)))
            let x1 = min(width, Int((x + w + 1).rounded(.up))), y1 = min(height, Int((y + h + 1).rounded(.up)))
            guard x1 > x0, y1 > y0 else { return }
            for py in y0..<y1 { for px in x0..<x1 { body(px, py) } }
        }
        for part in parts {
            switch part {
            case .glyph(let scalar, let box):
                drawGlyph(scalar, box: pixelRect(box), bold: weight == .semibold || weight == .bold, plot: plot)
            case .disc(let r):
                let (x, y, w, h) = pixelRect(r)
                let shape = RoundedShape(width: w, height: h, radius: min(w, h) / 2)
                forEachPixel(x, y, w, h) { px, py in plot(px, py, shape.coverage(px: Double(px) + 0.5, py: Double(py) + 0.5, x0: x, y0: y)) }
            case .roundedFill(let r, let radius):
                let (x, y, w, h) = pixelRect(r)
                let shape = RoundedShape(width: w, height: h, radius: radius * d)
                forEachPixel(x, y, w, h) { px, py in plot(px, py, shape.coverage(px: Double(px) + 0.5, py: Double(py) + 0.5, x0: x, y0: y)) }
            case .ring(let r):
                let (x, y, w, h) = pixelRect(r)
                let cx = x + w / 2, cy = y + h / 2, radius = min(w, h) / 2 - lw / 2
                forEachPixel(x, y, w, h) { px, py in
                    let dx = Double(px) + 0.5 - cx, dy = Double(py) + 0.5 - cy
                    plot(px, py, lw / 2 - abs((dx * dx + dy * dy).squareRoot() - radius) + 0.5)
                }
            case .roundedStroke(let r, let radius):
                let (x, y, w, h) = pixelRect(r)
                let outer = RoundedShape(width: w, height: h, radius: radius * d)
                let inner = RoundedShape(width: w - 2 * lw, height: h - 2 * lw, radius: max(0, radius * d - lw))
                forEachPixel(x, y, w, h) { px, py in
                    let cx = Double(px) + 0.5, cy = Double(py) + 0.5
                    plot(px, py, outer.coverage(px: cx, py: cy, x0: x, y0: y) * (1 - inner.coverage(px: cx, py: cy, x0: x + lw, y0: y + lw)))
                }
            case .polyline(let points):
                for (a, b) in zip(points, points.dropFirst()) {
                    let ax = a.0 * d, ay = a.1 * d, bx = b.0 * d, by = b.1 * d
                    let pad = lw
                    forEachPixel(min(ax, bx) - pad, min(ay, by) - pad, abs(bx - ax) + 2 * pad, abs(by - ay) + 2 * pad) { px, py in
                        plot(px, py, lw / 2 - distanceToSegment(Double(px) + 0.5, Double(py) + 0.5, ax, ay, bx, by) + 0.5)
                    }
                }
            case .erase(let r):
                let (x, y, w, h) = pixelRect(r)
                let shape = RoundedShape(width: w, height: h, radius: 0)
                forEachPixel(x, y, w, h) { px, py in
                    coverage[py * width + px] *= 1 - shape.coverage(px: Double(px) + 0.5, py: Double(py) + 0.5, x0: x, y0: y)
                }
            }
        }
        for y in 0..<height { for x in 0..<width { mask[x, y] = UInt8((coverage[y * width + x] * 255).rounded()) } }
        return mask
    }

    /// Renders a glyph of the pinned font so its ink fills `box` (aspect kept), centred.
    private func drawGlyph(_ scalar: Unicode.Scalar, box: (Double, Double, Double, Double), bold: Bool,
                           plot: (Int, Int, Double) -> Void) {
        do {
            let face = textEngine.face(bold: bold)
            guard let glyph = face.glyph(for: scalar),
                  let probe = textEngine.glyphMask(face: face, glyph: glyph, pixelSize: 256, phase: 0) else { return }
            let fit = min(box.2 / Double(probe.mask.width), box.3 / Double(probe.mask.height))
            guard let final = textEngine.glyphMask(face: face, glyph: glyph, pixelSize: 256 * fit, phase: 0) else { return }
            let ox = Int((box.0 + (box.2 - Double(final.mask.width)) / 2).rounded())
            let oy = Int((box.1 + (box.3 - Double(final.mask.height)) / 2).rounded())
            for y in 0..<final.mask.height {
                for x in 0..<final.mask.width { plot(ox + x, oy + y, Double(final.mask[x, y]) / 255) }
            }
        }
    }
}

private func distanceToSegment(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let vx = bx - ax, vy = by - ay
    let lengthSquared = vx * vx + vy * vy
    let t = lengthSquared > 0 ? min(1, max(0, ((px - ax) * vx + (py - ay) * vy) / lengthSquared)) : 0
    let dx = px - (ax + t * vx), dy = py - (ay + t * vy)
    return (dx * dx + dy * dy).squareRoot()
}
