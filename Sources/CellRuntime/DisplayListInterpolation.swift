import CellKit

/// The in-between look of an animated change. When two recordings have the same structure (the
/// same commands with different colours or rects — a selection fading in), colours, rects and
/// alphas move linearly; otherwise the old drawing cross-fades into the new one.
enum DisplayListInterpolation {
    static func interpolate(_ a: DisplayList, _ b: DisplayList, _ p: Double) -> DisplayList {
        if p <= 0 { return a }
        if p >= 1 || a == b { return b }
        if a.commands.count == b.commands.count {
            var out = DisplayList()
            for (x, y) in zip(a.commands, b.commands) {
                guard let c = command(x, y, p) else { return crossFade(a, b, p) }
                out.append(c)
            }
            return out
        }
        return crossFade(a, b, p)
    }

    static func crossFade(_ a: DisplayList, _ b: DisplayList, _ p: Double) -> DisplayList {
        var out = DisplayList()
        out.append(.pushAlpha(1 - p))
        out.append(a)
        out.append(.popAlpha)
        out.append(.pushAlpha(p))
        out.append(b)
        out.append(.popAlpha)
        return out
    }

    static func lerp(_ x: Double, _ y: Double, _ p: Double) -> Double { x + (y - x) * p }

    static func rect(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        Rect(x: lerp(a.minX, b.minX, p), y: lerp(a.minY, b.minY, p), width: lerp(a.width, b.width, p), height: lerp(a.height, b.height, p))
    }

    static func color(_ a: Color, _ b: Color, _ p: Double) -> Color {
        if a == b { return a }
        return Color(red: lerp(a.red, b.red, p), green: lerp(a.green, b.green, p), blue: lerp(a.blue, b.blue, p),
                     alpha: lerp(a.alpha, b.alpha, p))
    }

    /// One command between two of the same kind, or nil when they differ in kind or content.
    static func command(_ x: DisplayCommand, _ y: DisplayCommand, _ p: Double) -> DisplayCommand? {
        switch (x, y) {
        case (.fill(let r1, let c1), .fill(let r2, let c2)): return .fill(rect(r1, r2, p), color(c1, c2, p))
        case (.roundedRect(let r1, let k1, let c1), .roundedRect(let r2, let k2, let c2)):
            return .roundedRect(rect(r1, r2, p), cornerRadius: lerp(k1, k2, p), color: color(c1, c2, p))
        case (.stroke(let r1, let k1, let w1, let c1), .stroke(let r2, let k2, let w2, let c2)):
            return .stroke(rect(r1, r2, p), cornerRadius: lerp(k1, k2, p), width: lerp(w1, w2, p), color: color(c1, c2, p))
        case (.text(var t1), .text(let t2)):
            guard t1.text == t2.text, t1.font == t2.font else { return nil }
            t1.frame = rect(t1.frame, t2.frame, p)
            t1.color = color(t1.color, t2.color, p)
            return .text(t1)
        case (.symbol(let n1, let f1, let s1, let w1, let c1), .symbol(let n2, let f2, _, let w2, let c2)):
            guard n1 == n2, w1 == w2 else { return nil }
            return .symbol(name: n1, frame: rect(f1, f2, p), pointSize: s1, weight: w1, color: color(c1, c2, p))
        case (.pushAlpha(let a1), .pushAlpha(let a2)): return .pushAlpha(lerp(a1, a2, p))
        case (.shadow(let r1, let k1, let rad1, let o1, let c1), .shadow(let r2, let k2, let rad2, let o2, let c2)):
            return .shadow(rect(r1, r2, p), cornerRadius: lerp(k1, k2, p), radius: lerp(rad1, rad2, p),
                           offset: Point(x: lerp(o1.x, o2.x, p), y: lerp(o1.y, o2.y, p)), color: color(c1, c2, p))
        default:
            return x == y ? x : nil
        }
    }
}
