/// Text with attributes, for `attributedText` / `secondaryAttributedText`.
///
/// UIKit takes an `NSAttributedString`; the model keeps runs of text that may override the font
/// and colour. A run's attributes apply to the whole text as drawn: the first run that sets a font
/// or a colour wins. Mixed attributes inside one wrapped paragraph need per-glyph positions, which
/// only the renderer's shaper has, so the model does not pretend to lay them out.
public struct AttributedText: Hashable, Sendable, PropertyValueConvertible, ExpressibleByStringLiteral {
    public struct Run: Hashable, Sendable {
        public var text: String
        public var font: Font?
        public var color: Color?
        public init(_ text: String, font: Font? = nil, color: Color? = nil) {
            self.text = text
            self.font = font
            self.color = color
        }
    }

    public var runs: [Run]

    public init(_ runs: [Run]) { self.runs = runs }
    public init(_ text: String, font: Font? = nil, color: Color? = nil) { runs = [Run(text, font: font, color: color)] }
    public init(stringLiteral value: String) { self.init(value) }

    /// The characters of all runs.
    public var string: String { runs.map(\.text).joined() }
    /// The font that overrides the text properties' font, if any run sets one.
    public var font: Font? { runs.lazy.compactMap(\.font).first }
    /// The colour that overrides the text properties' colour, if any run sets one.
    public var color: Color? { runs.lazy.compactMap(\.color).first }

    /// Travels as its plain string; a string sets one plain run.
    public var propertyValue: PropertyValue { .string(string) }
    public static var propertyKindName: String { "string" }
    public static func converting(_ value: PropertyValue, property: String) -> AttributedText? {
        if case .string(let s) = value { AttributedText(s) } else { nil }
    }
}
