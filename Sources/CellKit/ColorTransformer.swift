/// A function from one colour to another (UIKit's `UIConfigurationColorTransformer`).
/// Default configurations carry preset transformers for some styles and states; the colour a
/// view shows is `transformer(inputColour)`. Transformers compare by name, because closures
/// cannot be compared and traces must say which one applied.

public struct ColorTransformer: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    private let transform: @Sendable (Color) -> Color

    public init(name: String, _ transform: @escaping @Sendable (Color) -> Color) {
        self.name = name
        self.transform = transform
    }

    public func callAsFunction(_ color: Color) -> Color { transform(color) }

    /// Applies `self`, then `next`: `a.then(b)(c) == b(a(c))`.
    public func then(_ next: ColorTransformer) -> ColorTransformer {
        let first = self
        return ColorTransformer(name: "\(first.name)+\(next.name)") { next(first($0)) }
    }

    /// Composes transformers left to right; an empty list is the identity.
    public static func composed(_ transformers: [ColorTransformer]) -> ColorTransformer {
        transformers.dropFirst().reduce(transformers.first ?? .identity) { $0.then($1) }
    }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }

    public static let identity = ColorTransformer(name: "identity") { $0 }

    /// Luminance-preserving grey (Rec. 709 weights), alpha kept.
    public static let grayscale = ColorTransformer(name: "grayscale") { color in
        color.mapComponents { c in
            let y = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
            return RGBA(red: y, green: y, blue: y, alpha: c.alpha)
        }
    }

    /// Ignores the input colour and returns the accent (tint) colour, keeping the input's alpha.
    public static let preferredTint = ColorTransformer(name: "preferredTint") { color in
        Color.tintColor.withAlphaComponent(color.alpha)
    }

    /// The tint colour, desaturated: grey with the tint's luminance, as `monochromeTint`.
    public static let monochromeTint = ColorTransformer(name: "monochromeTint") { color in
        ColorTransformer.grayscale(Color.tintColor).withAlphaComponent(color.alpha)
    }

    /// The colour mixed 20% towards black, alpha kept: a pressed (highlighted) selection.
    public static let pressed = ColorTransformer(name: "pressed") { color in
        color.mapComponents { c in RGBA(red: c.red * 0.8, green: c.green * 0.8, blue: c.blue * 0.8, alpha: c.alpha) }
    }

    /// The colour at a quarter of its alpha: a translucent wash such as a drop-target highlight.
    public static let faded = ColorTransformer(name: "faded") { color in
        color.mapComponents { c in RGBA(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * 0.25) }
    }

    /// Built-in transformers by name, for event streams and the plugin ABI.
    public static let builtIn: [String: ColorTransformer] = [
        "identity": .identity, "grayscale": .grayscale, "preferredTint": .preferredTint,
        "monochromeTint": .monochromeTint, "pressed": .pressed, "faded": .faded,
    ]
}
