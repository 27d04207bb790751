/// Configuration states: everything a configuration may restyle itself for — traits, the
/// view's and cell's flags, and app-defined custom states (UIKit's `UIConfigurationState` family).

/// Key of an app-defined custom state, as `UIConfigurationStateCustomKey` (a string raw value).
public struct ConfigurationStateCustomKey: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The value of a custom state. UIKit stores `AnyHashable`; cellhost keeps to values that can
/// cross the plugin ABI and be written to a trace.
public enum CustomStateValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)

    public var description: String {
        switch self {
        case .bool(let b): String(b)
        case .int(let i): String(i)
        case .double(let d): formatPoints(d)
        case .string(let s): "\"\(s)\""
        }
    }

    /// Truthiness used by configurations that only care whether a custom state is "on".
    public var isTruthy: Bool {
        switch self {
        case .bool(let b): b
        case .int(let i): i != 0
        case .double(let d): d != 0
        case .string(let s): !s.isEmpty
        }
    }
}

/// What every configuration state has: traits and custom states.
public protocol ConfigurationState: Sendable {
    var traitCollection: TraitCollection { get set }
    var customStates: [ConfigurationStateCustomKey: CustomStateValue] { get set }
}

extension ConfigurationState {
    public subscript(key: ConfigurationStateCustomKey) -> CustomStateValue? {
        get { customStates[key] }
        set { customStates[key] = newValue }
    }

    /// The view-level flags of any state (a plain `ConfigurationState` has none: all false).
    public var viewState: ViewConfigurationState {
        if let v = self as? ViewConfigurationState { return v }
        if let c = self as? CellConfigurationState { return c.viewState }
        return ViewConfigurationState(traitCollection: traitCollection, customStates: customStates)
    }

    /// The cell-level flags of any state, with cell-only flags off when the state is not a cell's.
    public var cellState: CellConfigurationState {
        if let c = self as? CellConfigurationState { return c }
        return CellConfigurationState(viewState)
    }
}

extension ConfigurationState where Self: Equatable {
    /// Takes every flag and custom state of `other`, keeping these traits; false when nothing
    /// changed. Compared and replaced where the state is stored: read out of a class to compare,
    /// it would be copied (a retain and release of its custom states).
    mutating func takeFlags(of other: Self) -> Bool {
        var new = other
        new.traitCollection = traitCollection
        guard new != self else { return false }
        self = consume new
        return true
    }
}

/// The state of a header, footer or any view: UIKit's `UIViewConfigurationState`.
public struct ViewConfigurationState: ConfigurationState, Hashable {
    public var traitCollection: TraitCollection
    public var isHighlighted: Bool
    public var isSelected: Bool
    public var isDisabled: Bool
    public var isFocused: Bool
    /// Headers and footers pinned to the top or bottom of the visible area (iOS 15).
    public var isPinned: Bool
    public var customStates: [ConfigurationStateCustomKey: CustomStateValue]

    public init(
        traitCollection: TraitCollection = .default,
        isHighlighted: Bool = false, isSelected: Bool = false, isDisabled: Bool = false,
        isFocused: Bool = false, isPinned: Bool = false,
        customStates: [ConfigurationStateCustomKey: CustomStateValue] = [:]
    ) {
        self.traitCollection = traitCollection
        self.isHighlighted = isHighlighted
        self.isSelected = isSelected
        self.isDisabled = isDisabled
        self.isFocused = isFocused
        self.isPinned = isPinned
        self.customStates = customStates
    }
}

/// Drag states of a cell (`UICellConfigurationDragState`).
public enum CellDragState: String, Hashable, Sendable, CaseIterable, Codable {
    case none, lifting, dragging
}

/// Drop states of a cell (`UICellConfigurationDropState`).
public enum CellDropState: String, Hashable, Sendable, CaseIterable, Codable {
    case none, notTargeted, targeted
}

/// The state of a cell: every view flag plus the cell-only ones (`UICellConfigurationState`).
public struct CellConfigurationState: ConfigurationState, Hashable {
    public var traitCollection: TraitCollection
    public var isHighlighted: Bool
    public var isSelected: Bool
    public var isDisabled: Bool
    public var isFocused: Bool
    public var isPinned: Bool
    public var isEditing: Bool
    public var isExpanded: Bool
    public var isSwiped: Bool
    public var isReordering: Bool
    public var cellDragState: CellDragState
    public var cellDropState: CellDropState
    public var customStates: [ConfigurationStateCustomKey: CustomStateValue]

    public init(
        traitCollection: TraitCollection = .default,
        isHighlighted: Bool = false, isSelected: Bool = false, isDisabled: Bool = false,
        isFocused: Bool = false, isPinned: Bool = false,
        isEditing: Bool = false, isExpanded: Bool = false, isSwiped: Bool = false, isReordering: Bool = false,
        cellDragState: CellDragState = .none, cellDropState: CellDropState = .none,
        customStates: [ConfigurationStateCustomKey: CustomStateValue] = [:]
    ) {
        self.traitCollection = traitCollection
        self.isHighlighted = isHighlighted
        self.isSelected = isSelected
        self.isDisabled = isDisabled
        self.isFocused = isFocused
        self.isPinned = isPinned
        self.isEditing = isEditing
        self.isExpanded = isExpanded
        self.isSwiped = isSwiped
        self.isReordering = isReordering
        self.cellDragState = cellDragState
        self.cellDropState = cellDropState
        self.customStates = customStates
    }

    /// A cell state carrying a view state's flags, cell-only flags off.
    public init(_ view: ViewConfigurationState) {
        self.init(traitCollection: view.traitCollection, isHighlighted: view.isHighlighted,
                  isSelected: view.isSelected, isDisabled: view.isDisabled, isFocused: view.isFocused,
                  isPinned: view.isPinned, customStates: view.customStates)
    }

    public var viewState: ViewConfigurationState {
        ViewConfigurationState(traitCollection: traitCollection, isHighlighted: isHighlighted,
                               isSelected: isSelected, isDisabled: isDisabled, isFocused: isFocused,
                               isPinned: isPinned, customStates: customStates)
    }
}

extension CellConfigurationState {
    /// The flags that are on, as words ("highlighted", "drop=targeted"), in declaration order:
    /// how traces and reports name a state. Custom states are left to the caller, which decides
    /// how much of their values to show.
    public var activeFlagNames: [String] {
        var names: [String] = []
        if isHighlighted { names.append("highlighted") }
        if isSelected { names.append("selected") }
        if isDisabled { names.append("disabled") }
        if isFocused { names.append("focused") }
        if isPinned { names.append("pinned") }
        if isEditing { names.append("editing") }
        if isExpanded { names.append("expanded") }
        if isSwiped { names.append("swiped") }
        if isReordering { names.append("reordering") }
        if cellDragState != .none { names.append("drag=\(cellDragState.rawValue)") }
        if cellDropState != .none { names.append("drop=\(cellDropState.rawValue)") }
        return names
    }
}
