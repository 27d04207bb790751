/// The name a new plugin project is created under, in the forms each language and the host
/// expect: `star-rating` and `StarRating` both give the Swift name `StarRating`, the C and Rust
/// library name `star_rating`, the Cargo package `star-rating` and the type id
/// `com.example.star-rating`. Invariant: every form is non-empty and valid where it is used
/// (a Swift identifier, a C identifier, a reverse-DNS label), so a project built from a valid
/// name compiles and loads without renaming anything.
public struct PluginProjectName: Sendable, Equatable {
    /// The name as given.
    public let given: String
    /// Its words: split at `-`, `_` and where a lower-case letter or digit meets a capital.
    public let words: [String]

    /// Letters, digits, `-` and `_`, starting with a letter: what every form can be made from.
    public init?(_ name: String) {
        guard let first = name.unicodeScalars.first, first.isASCIILetter, name.count <= 64,
              name.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" || $0 == "_" })
        else { return nil }
        var words: [String] = []
        var current = ""
        var previous: Unicode.Scalar?
        for scalar in name.unicodeScalars {
            if scalar == "-" || scalar == "_" {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                if scalar.isASCIIUpper, let previous, previous.isASCIILower || previous.isASCIIDigit, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current.unicodeScalars.append(scalar)
            }
            previous = scalar
        }
        if !current.isEmpty { words.append(current) }
        given = name
        self.words = words
    }

    /// `StarRating`: the Swift package, product and module.
    public var upperCamel: String { words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
    /// `star_rating`: the C and Rust library (`libstar_rating.so`).
    public var snake: String { words.map { $0.lowercased() }.joined(separator: "_") }
    /// `star-rating`: the Cargo package and the last label of the ids.
    public var kebab: String { words.map { $0.lowercased() }.joined(separator: "-") }
    /// `Star Rating`: the title a new cell shows and the plugin's display name.
    public var title: String { words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ") }
    /// `com.example.star-rating`: the plugin id.
    public var pluginIdentifier: String { "com.example.\(kebab)" }
    /// `com.example.star-rating.cell`: the configuration type id streams name.
    public var typeIdentifier: String { "\(pluginIdentifier).cell" }
    /// The Swift configuration struct: `StarRatingCell` (a name already ending in Cell is kept).
    public var swiftTypeName: String { upperCamel.hasSuffix("Cell") ? upperCamel : upperCamel + "Cell" }
}

private extension Unicode.Scalar {
    var isASCIILower: Bool { ("a"..."z").contains(self) }
    var isASCIIUpper: Bool { ("A"..."Z").contains(self) }
    var isASCIILetter: Bool { isASCIILower || isASCIIUpper }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
