/// The seam between layout and text rendering. CellKit lays text out through this protocol; the
/// compositor implements it with HarfBuzz/FreeType so layout and pixels agree. Tests use
/// `FixedAdvanceTextMeasurer`, which is deterministic and needs no font.

public enum TextAlignment: String, Hashable, Sendable, CaseIterable, Codable {
    /// Leading in the layout direction: left in LTR, right in RTL.
    case natural, left, center, right, justified
}

public enum LineBreakMode: String, Hashable, Sendable, CaseIterable, Codable {
    case byWordWrapping, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// What a measurement is asked for: the text as drawn, its font and its line rules.
public struct TextLayoutRequest: Hashable, Sendable {
    public var text: String
    public var font: Font
    /// 0 = unlimited, as `numberOfLines`.
    public var numberOfLines: Int
    public var lineBreakMode: LineBreakMode
    public var layoutDirection: LayoutDirection

    public init(text: String, font: Font, numberOfLines: Int = 0, lineBreakMode: LineBreakMode = .byTruncatingTail,
                layoutDirection: LayoutDirection = .leftToRight) {
        self.text = text
        self.font = font
        self.numberOfLines = numberOfLines
        self.lineBreakMode = lineBreakMode
        self.layoutDirection = layoutDirection
    }
}

/// The measured size of laid-out text and the baselines that cells align on.
public struct TextMetrics: Hashable, Sendable {
    /// Width of the widest line (≤ the constraint) and the height of all lines.
    public var size: Size
    public var lineCount: Int
    /// Distance from the top to the first line's baseline.
    public var firstBaseline: Double
    /// Distance from the top to the last line's baseline.
    public var lastBaseline: Double
    /// Height of one line (ascent + descent + line gap).
    public var lineHeight: Double

    public init(size: Size, lineCount: Int, firstBaseline: Double, lastBaseline: Double, lineHeight: Double) {
        self.size = size
        self.lineCount = lineCount
        self.firstBaseline = firstBaseline
        self.lastBaseline = lastBaseline
        self.lineHeight = lineHeight
    }
}

/// Class-bound: every layout context holds one, and a copy of a class-bound existential is a
/// retain, where an open one goes through its type's value witnesses.
public protocol TextMeasuring: AnyObject, Sendable {
    /// Lays `request` out in lines no wider than `width` (nil = one unconstrained line per
    /// paragraph) and returns its size. Must be deterministic: equal inputs, equal results.
    func measure(_ request: TextLayoutRequest, width: Double?) -> TextMetrics
    /// The intrinsic size in points of the bitmap image at `path` (UIImage's `size`: pixels over
    /// the scale its name says, `@2x` / `@3x`, else 1); nil when it cannot be read. The renderer
    /// answers, since it reads the same file it draws: layout and pixels agree on the size.
    func imageSize(atPath path: String) -> Size?
    /// The size in points of the symbol image `name` at `pointSize` (UIImage's `size` for a
    /// symbol): `Image.symbolHeight(pointSize:)` tall and as wide as the symbol's glyph advances,
    /// so a wide symbol ("ellipsis") is wider than tall and a narrow one ("exclamationmark")
    /// narrower. The renderer answers, since it draws the symbol from the same width.
    func symbolSize(named name: String, pointSize: Double) -> Size
}

extension TextMeasuring {
    /// A measurer that reads no files knows no image sizes: layout gives such an image the
    /// standard image dimension.
    public func imageSize(atPath path: String) -> Size? { nil }

    /// A measurer that knows no glyphs makes every symbol square.
    public func symbolSize(named name: String, pointSize: Double) -> Size {
        let side = Image.symbolHeight(pointSize: pointSize)
        return Size(width: side, height: side)
    }
}

extension Image {
    /// The height in points of a symbol image at `pointSize`: SF Symbols stand about 1.2 times
    /// the point size tall, rounded up to a whole point.
    public static func symbolHeight(pointSize: Double) -> Double { (pointSize * 1.2).rounded(.up) }
}

/// Every character advances `advanceFactor × pointSize`; lines are `lineHeightFactor × pointSize`.
/// Word wrapping breaks at spaces. For tests only: the product measures with real fonts.
public final class FixedAdvanceTextMeasurer: TextMeasuring {
    public let advanceFactor: Double
    public let lineHeightFactor: Double

    public init(advanceFactor: Double = 0.5, lineHeightFactor: Double = 1.2) {
        self.advanceFactor = advanceFactor
        self.lineHeightFactor = lineHeightFactor
    }

    public func measure(_ request: TextLayoutRequest, width: Double?) -> TextMetrics {
        let advance = advanceFactor * request.font.pointSize
        let lineHeight = (lineHeightFactor * request.font.pointSize).rounded(.up)
        var lines: [Int] = []  // character counts per line
        for paragraph in request.text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let width, advance > 0 else { lines.append(paragraph.count); continue }
            let perLine = max(1, Int((width / advance).rounded(.down)))
            var current = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let w = word.count
                let needed = current == 0 ? w : current + 1 + w
                if needed <= perLine { current = needed; continue }
                if current > 0 { lines.append(current) }
                var rest = w
                while rest > perLine { lines.append(perLine); rest -= perLine }
                current = rest
            }
            lines.append(current)
        }
        if request.numberOfLines > 0 && lines.count > request.numberOfLines {
            lines = Array(lines.prefix(request.numberOfLines))
            if let width { lines[lines.count - 1] = max(lines[lines.count - 1], Int(width / max(advance, 1e-9))) }
        }
        let widest = Double(lines.max() ?? 0) * advance
        let measuredWidth = width.map { min($0, widest) } ?? widest
        let ascent = (0.8 * request.font.pointSize).rounded()
        let count = max(1, lines.count)
        return TextMetrics(size: Size(width: measuredWidth, height: Double(count) * lineHeight),
                           lineCount: count, firstBaseline: ascent,
                           lastBaseline: Double(count - 1) * lineHeight + ascent, lineHeight: lineHeight)
    }
}
