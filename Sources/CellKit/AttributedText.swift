/// Text with attributes, for `attributedText` / `secondaryAttributedText`.
///
/// UIKit takes an `NSAttributedString`; the model keeps runs of text that may override the font,
/// the weight and the colour. One run's attributes apply to the whole text and it lays out (and
/// wraps) as plain text does. Several runs lay out in lines as plain text does, each piece
/// measured and drawn with its run's font, weight and colour, baselines aligned (`StyledText`).
public struct AttributedText: Hashable, Sendable, PropertyValueConvertible, ExpressibleByStringLiteral, CustomStringConvertible {
    public struct Run: Hashable, Sendable {
        public var text: String
        public var font: Font?
        public var color: Color?
        /// Overrides the weight of the run's font (its own, or the text properties').
        public var weight: FontWeight?
        public init(_ text: String, font: Font? = nil, color: Color? = nil, weight: FontWeight? = nil) {
            self.text = text
            self.font = font
            self.color = color
            self.weight = weight
        }

        /// The font the run is drawn in when the text properties give `base`.
        public func font(over base: Font) -> Font {
            var f = font ?? base
            if let weight { f.weight = weight }
            return f
        }
    }

    public var runs: [Run]

    public init(_ runs: [Run]) { self.runs = runs }
    public init(_ text: String, font: Font? = nil, color: Color? = nil) { runs = [Run(text, font: font, color: color)] }
    public init(stringLiteral value: String) { self.init(value) }

    /// The characters of all runs.
    public var string: String { runs.map(\.text).joined() }
    /// Several runs, each laid out with its own attributes (`StyledText`).
    public var hasSeveralRuns: Bool { runs.count > 1 }
    /// The font the text is laid out in when the text properties give `base`: the single run's
    /// (its weight applied). Several runs carry their fonts themselves, so `base` stays.
    public func font(over base: Font) -> Font { runs.count == 1 ? runs[0].font(over: base) : base }
    /// The colour that overrides the text properties' colour: the single run's.
    public var color: Color? { runs.count == 1 ? runs.first?.color : nil }

    /// Plain text travels as its string; anything with attributes travels whole.
    public var propertyValue: PropertyValue {
        if runs.count == 1, let run = runs.first, run.font == nil, run.color == nil, run.weight == nil { return .string(run.text) }
        return .attributed(self)
    }
    public static var propertyKindName: String { "string" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> AttributedText? {
        switch value {
        case .string(let s): return AttributedText(try String.converting(value, property: property) ?? s)
        case .attributed(let a):
            if let problem = ValueBounds.textProblem(bytes: a.runs.reduce(0) { $0 + $1.text.utf8.count }) {
                throw .invalidValue(property: property, reason: problem)
            }
            return a
        default: return nil
        }
    }

    /// Each run quoted, its attributes after it: `"Due " + "today" (systemRed, bold)`.
    public var description: String {
        runs.map { run in
            let attributes = [run.font?.description, run.color?.description, run.weight?.rawValue].compactMap { $0 }
            return "\"\(run.text)\"" + (attributes.isEmpty ? "" : " (\(attributes.joined(separator: ", ")))")
        }.joined(separator: " + ")
    }
}
