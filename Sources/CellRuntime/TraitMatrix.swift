import CellKit

/// A stream's `{"matrix": {"style": ["light", "dark"], "direction": ["ltr", "rtl"]}}` line: the
/// scene runs once per combination of the listed trait values, so one stream checks a cell in
/// every appearance it must support. Axes keep the order the line lists them in, and values the
/// order they are written: combinations, and so snapshot names, come out the same every run.
public struct TraitMatrix: Sendable, Equatable {
    public struct Axis: Sendable, Equatable {
        /// The scene trait key (`style`, `contentSize`, `direction`, …).
        public var key: String
        /// Each value as written in the stream, with the change it makes to the scene's traits.
        public var values: [(name: String, change: TraitChange)]

        public init(key: String, values: [(name: String, change: TraitChange)]) {
            self.key = key
            self.values = values
        }

        public static func == (a: Axis, b: Axis) -> Bool {
            a.key == b.key && a.values.map(\.name) == b.values.map(\.name) && a.values.map(\.change) == b.values.map(\.change)
        }
    }

    /// One run of the matrix: the traits it sets and its name, the values joined by `-` in axis
    /// order (`dark-AX3-rtl`). A capture `selected` of that run is named `selected.dark-AX3-rtl`.
    public struct Combination: Sendable, Equatable {
        public var name: String
        public var traits: TraitChange
    }

    public var axes: [Axis]
    /// Stream line of the matrix, for messages.
    public var line: Int

    public init(axes: [Axis], line: Int) {
        self.axes = axes
        self.line = line
    }

    /// Every combination, the first axis varying slowest.
    public var combinations: [Combination] {
        var result = [Combination(name: "", traits: TraitChange())]
        for axis in axes {
            result = result.flatMap { partial in
                axis.values.map { value in
                    var traits = partial.traits
                    value.change.merge(into: &traits)
                    return Combination(name: partial.name.isEmpty ? value.name : partial.name + "-" + value.name, traits: traits)
                }
            }
        }
        return result
    }
}

extension TraitChange {
    /// Copies every trait this change sets into `other` (the later change wins).
    func merge(into other: inout TraitChange) {
        if let userInterfaceStyle { other.userInterfaceStyle = userInterfaceStyle }
        if let contentSizeCategory { other.contentSizeCategory = contentSizeCategory }
        if let layoutDirection { other.layoutDirection = layoutDirection }
        if let horizontalSizeClass { other.horizontalSizeClass = horizontalSizeClass }
        if let verticalSizeClass { other.verticalSizeClass = verticalSizeClass }
        if let accessibilityContrast { other.accessibilityContrast = accessibilityContrast }
        if let userInterfaceLevel { other.userInterfaceLevel = userInterfaceLevel }
        if let legibilityWeight { other.legibilityWeight = legibilityWeight }
        if let userInterfaceIdiom { other.userInterfaceIdiom = userInterfaceIdiom }
    }
}

extension TraitMatrix {
    /// Matrix keys that name a scene trait in the words of a test's author: `appearance` is the
    /// light / dark trait here (a list's appearance is not a trait), `textSize` the content size.
    static let aliases = ["appearance": "style", "textSize": "contentSize"]

    /// Characters allowed in a matrix value, which becomes part of file names.
    static func isNamePart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_") }
}
