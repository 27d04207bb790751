/// An image a configuration shows: a named symbol (drawn by the compositor from font glyphs,
/// sized by the symbol configuration) or a PNG file with a known pixel size.

public struct Image: Hashable, Sendable, CustomStringConvertible {
    public enum Source: Hashable, Sendable {
        /// A symbol by its SF Symbols-style name ("star.fill", "folder").
        case symbol(String)
        /// A PNG file on disk.
        case file(path: String)
    }

    public var source: Source
    /// Intrinsic size in points for file images; nil for symbols, whose size follows the
    /// symbol configuration (point size of the text style they sit next to).
    public var size: Size?
    /// Template images are drawn in the tint colour (symbols always are).
    public var isTemplate: Bool

    public init(systemName: String) {
        source = .symbol(systemName)
        size = nil
        isTemplate = true
    }

    public init(path: String, size: Size, isTemplate: Bool = false) {
        source = .file(path: path)
        self.size = size
        self.isTemplate = isTemplate
    }

    /// A PNG file whose size is not known to the model: layout asks the renderer for its
    /// intrinsic size (the standard image dimension when the file cannot be read).
    public init(path: String, isTemplate: Bool = false) {
        source = .file(path: path)
        size = nil
        self.isTemplate = isTemplate
    }

    public var isSymbol: Bool { if case .symbol = source { true } else { false } }

    /// The PNG file's path; nil for a symbol.
    public var filePath: String? { if case .file(let path) = source { path } else { nil } }

    public var description: String {
        switch source {
        case .symbol(let name): "symbol:\(name)"
        case .file(let path): "file:\(path)"
        }
    }
}

/// A symbol image's configuration (`UIImage.SymbolConfiguration`, the parts lists use).
public struct SymbolConfiguration: Hashable, Sendable {
    public var pointSize: Double?
    public var textStyle: TextStyle?
    public var weight: FontWeight?
    public init(pointSize: Double? = nil, textStyle: TextStyle? = nil, weight: FontWeight? = nil) {
        self.pointSize = pointSize
        self.textStyle = textStyle
        self.weight = weight
    }
}
