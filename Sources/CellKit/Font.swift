/// Fonts as the model describes them: a family, a point size and a weight. The compositor maps
/// them to real faces through fontconfig; the model only needs their metrics through `TextMeasuring`.

public enum FontWeight: String, Hashable, Sendable, CaseIterable, Codable {
    case regular, medium, semibold, bold

    /// The weight the system's text styles take with Bold Text on (`legibilityWeight` bold):
    /// one step heavier, regular and medium text becoming semibold.
    public var withBoldText: FontWeight {
        switch self {
        case .regular, .medium: .semibold
        case .semibold, .bold: .bold
        }
    }
}

/// Dynamic Type text styles (`UIFont.TextStyle`).
public enum TextStyle: String, Hashable, Sendable, CaseIterable, Codable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2
}

public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// nil = the system family (the compositor's pinned default face).
    public var family: String?
    public var pointSize: Double
    public var weight: FontWeight
    public var isItalic: Bool
    /// The text style the font was made for, so it can be rescaled for another content size.
    public var textStyle: TextStyle?

    public init(family: String? = nil, pointSize: Double, weight: FontWeight = .regular, isItalic: Bool = false,
                textStyle: TextStyle? = nil) {
        self.family = family
        self.pointSize = pointSize
        self.weight = weight
        self.isItalic = isItalic
        self.textStyle = textStyle
    }

    public static func systemFont(ofSize size: Double, weight: FontWeight = .regular) -> Font {
        Font(pointSize: size, weight: weight)
    }

    public var description: String {
        var s = "\(family ?? "system") \(formatPoints(pointSize))pt"
        if weight != .regular { s += " \(weight.rawValue)" }
        if isItalic { s += " italic" }
        if let textStyle { s += " (\(textStyle.rawValue))" }
        return s
    }
}
