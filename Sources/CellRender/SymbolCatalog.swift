import CellKit

/// Symbol images by SF Symbols name, drawn from glyphs of the pinned font where it has a
/// fitting one (★ ♥ ✓ ⚑ ⚙ ✉ ⌂ …) and otherwise built from lines, rings and rounded rects.
/// Coordinates are in symbol heights (y down, 0...1); x runs 0...`drawnWidth` (1 for a square
/// symbol, more for a wide one). Line widths follow the symbol weight.
enum SymbolPart {
    /// A font glyph scaled so its ink fits `box`, centred; its symbol's width is its advance at
    /// that scale, the square centred in it.
    case glyph(Unicode.Scalar, box: UnitRect = .full)
    case disc(UnitRect)
    case ring(UnitRect)
    case roundedFill(UnitRect, radius: Double)
    case roundedStroke(UnitRect, radius: Double)
    /// Connected line segments with round ends.
    case polyline([(Double, Double)])
    /// Removes coverage inside the rect (to open outlines or cut shapes).
    case erase(UnitRect)
}

struct UnitRect {
    var x, y, width, height: Double
    init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    static let full = UnitRect(0, 0, 1, 1)
}

enum SymbolCatalog {
    /// The symbol names this compositor draws; anything else draws `missing`.
    static let names: [String] = Array(definitions.keys).sorted()

    static func parts(named name: String) -> [SymbolPart]? { definitions[name] }

    /// The width of a drawn symbol in symbol heights (UIKit's wide symbols such as "ellipsis" and
    /// "rectangle"); 1 for the square ones. A glyph symbol's width comes from the font instead
    /// (`glyphScalar(named:)`), as its advance.
    static func drawnWidth(named name: String) -> Double { drawnWidths[name] ?? 1 }

    /// The font glyph a symbol is made of alone, whose advance is the symbol's width; nil for
    /// drawn symbols.
    static func glyphScalar(named name: String) -> Unicode.Scalar? {
        guard let parts = definitions[name], parts.count == 1, case .glyph(let scalar, _) = parts[0] else { return nil }
        return scalar
    }

    private static let drawnWidths: [String: Double] = ["ellipsis": 1.5, "rectangle": 1.3]

    /// The name under which the crossed box is drawn on purpose (an image that failed to load).
    static let missingName = "\u{0}missing"

    /// A crossed box: visibly not the symbol that was asked for.
    static let missing: [SymbolPart] = [
        .roundedStroke(UnitRect(0.08, 0.08, 0.84, 0.84), radius: 0.06),
        .polyline([(0.08, 0.08), (0.92, 0.92)]), .polyline([(0.92, 0.08), (0.08, 0.92)]),
    ]

    private static let definitions: [String: [SymbolPart]] = [
        "star": [.glyph("\u{2606}")],
        "star.fill": [.glyph("\u{2605}")],
        "heart": [.glyph("\u{2661}")],
        "heart.fill": [.glyph("\u{2665}")],
        "checkmark": [.polyline([(0.1, 0.55), (0.38, 0.85), (0.9, 0.15)])],
        "flag": [.glyph("\u{2690}")],
        "flag.fill": [.glyph("\u{2691}")],
        "gear": [.glyph("\u{2699}")],
        "hammer": [.glyph("\u{2692}")],
        "envelope": [.glyph("\u{2709}")],
        "house": [.glyph("\u{2302}")],
        "chevron.right": [.polyline([(0.32, 0.08), (0.72, 0.5), (0.32, 0.92)])],
        "chevron.left": [.polyline([(0.68, 0.08), (0.28, 0.5), (0.68, 0.92)])],
        "chevron.down": [.polyline([(0.08, 0.32), (0.5, 0.72), (0.92, 0.32)])],
        "plus": [.polyline([(0.5, 0.08), (0.5, 0.92)]), .polyline([(0.08, 0.5), (0.92, 0.5)])],
        "minus": [.polyline([(0.08, 0.5), (0.92, 0.5)])],
        "xmark": [.polyline([(0.12, 0.12), (0.88, 0.88)]), .polyline([(0.88, 0.12), (0.12, 0.88)])],
        "circle": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9))],
        "circle.fill": [.disc(UnitRect(0.05, 0.05, 0.9, 0.9))],
        "square": [.roundedStroke(UnitRect(0.08, 0.08, 0.84, 0.84), radius: 0.14)],
        "square.fill": [.roundedFill(UnitRect(0.08, 0.08, 0.84, 0.84), radius: 0.14)],
        "info.circle": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9)), .disc(UnitRect(0.44, 0.22, 0.12, 0.12)),
                        .polyline([(0.5, 0.44), (0.5, 0.76)])],
        "plus.circle": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9)), .polyline([(0.5, 0.28), (0.5, 0.72)]),
                        .polyline([(0.28, 0.5), (0.72, 0.5)])],
        "xmark.circle": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9)), .polyline([(0.34, 0.34), (0.66, 0.66)]),
                         .polyline([(0.66, 0.34), (0.34, 0.66)])],
        "checkmark.circle": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9)), .polyline([(0.3, 0.52), (0.44, 0.67), (0.7, 0.34)])],
        "clock": [.ring(UnitRect(0.05, 0.05, 0.9, 0.9)), .polyline([(0.5, 0.22), (0.5, 0.5), (0.7, 0.62)])],
        "magnifyingglass": [.ring(UnitRect(0.08, 0.08, 0.6, 0.6)), .polyline([(0.6, 0.6), (0.9, 0.9)])],
        "folder": [.roundedStroke(UnitRect(0.06, 0.16, 0.4, 0.24), radius: 0.06), .erase(UnitRect(0.1, 0.32, 0.8, 0.5)),
                   .roundedStroke(UnitRect(0.06, 0.28, 0.88, 0.58), radius: 0.08)],
        "folder.fill": [.roundedFill(UnitRect(0.06, 0.16, 0.4, 0.24), radius: 0.06),
                        .roundedFill(UnitRect(0.06, 0.26, 0.88, 0.6), radius: 0.08)],
        "trash": [.polyline([(0.1, 0.22), (0.9, 0.22)]), .polyline([(0.36, 0.2), (0.4, 0.08), (0.6, 0.08), (0.64, 0.2)]),
                  .roundedStroke(UnitRect(0.2, 0.22, 0.6, 0.72), radius: 0.1),
                  .polyline([(0.4, 0.38), (0.4, 0.78)]), .polyline([(0.6, 0.38), (0.6, 0.78)])],
        "archivebox": [.roundedStroke(UnitRect(0.05, 0.12, 0.9, 0.22), radius: 0.05),
                       .roundedStroke(UnitRect(0.1, 0.34, 0.8, 0.56), radius: 0.06),
                       .polyline([(0.38, 0.52), (0.62, 0.52)])],
        "bell": [.roundedStroke(UnitRect(0.2, 0.1, 0.6, 0.9), radius: 0.3), .erase(UnitRect(0, 0.74, 1, 0.3)),
                 .polyline([(0.1, 0.74), (0.9, 0.74)]), .disc(UnitRect(0.41, 0.8, 0.18, 0.14))],
        "bookmark": [.polyline([(0.25, 0.08), (0.75, 0.08), (0.75, 0.92), (0.5, 0.7), (0.25, 0.92), (0.25, 0.08)])],
        "person": [.ring(UnitRect(0.33, 0.06, 0.34, 0.34)), .roundedStroke(UnitRect(0.14, 0.5, 0.72, 0.7), radius: 0.3),
                   .erase(UnitRect(0, 0.9, 1, 0.3)), .polyline([(0.14, 0.9), (0.86, 0.9)])],
        "paperplane": [.polyline([(0.06, 0.44), (0.94, 0.08), (0.62, 0.94), (0.46, 0.56), (0.06, 0.44)]),
                       .polyline([(0.46, 0.56), (0.94, 0.08)])],
        "tray": [.polyline([(0.06, 0.52), (0.2, 0.16), (0.8, 0.16), (0.94, 0.52), (0.94, 0.86), (0.06, 0.86), (0.06, 0.52)]),
                 .polyline([(0.06, 0.52), (0.32, 0.52), (0.38, 0.64), (0.62, 0.64), (0.68, 0.52), (0.94, 0.52)])],
        "ellipsis": [.disc(UnitRect(0.13, 0.41, 0.18, 0.18)), .disc(UnitRect(0.66, 0.41, 0.18, 0.18)),
                     .disc(UnitRect(1.19, 0.41, 0.18, 0.18))],
        "rectangle": [.roundedStroke(UnitRect(0.06, 0.16, 1.18, 0.68), radius: 0.12)],
        "exclamationmark": [.glyph("!")],
        "line.3.horizontal": [.polyline([(0.1, 0.22), (0.9, 0.22)]), .polyline([(0.1, 0.5), (0.9, 0.5)]),
                              .polyline([(0.1, 0.78), (0.9, 0.78)])],
        "exclamationmark.triangle": [.glyph("\u{26A0}")],
        "arrow.right": [.polyline([(0.08, 0.5), (0.9, 0.5)]), .polyline([(0.58, 0.18), (0.9, 0.5), (0.58, 0.82)])],
        "arrow.clockwise": [.glyph("\u{21BB}")],
    ]

    /// Stroke width as a fraction of the symbol size, by weight.
    static func lineWidth(_ weight: FontWeight) -> Double {
        switch weight {
        case .regular: 0.085
        case .medium: 0.1
        case .semibold: 0.115
        case .bold: 0.13
        }
    }

    /// The standard symbol dimension for text of `pointSize`: the square a symbol fills next to
    /// such text (SF Symbols render about 1.2× the point size tall for medium scale).
    static func standardDimension(pointSize: Double) -> Double { (pointSize * 1.2).rounded() }
}
