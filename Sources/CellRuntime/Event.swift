import CellKit

/// One line of an event stream after the scene: what happens, in one coalesced update pass.
public struct Event: Sendable, Equatable {
    /// 1-based position among the stream's events (scene lines do not count): traces name it "#3".
    public var number: Int
    /// Line in the stream, for messages.
    public var line: Int
    /// The author's description, shown in traces.
    public var note: String?
    /// Set when the change animates: the engine renders intermediate frames.
    public var animation: Animation?
    /// Every change of the line (a `group` has several); all land in one update pass.
    public var actions: [EventAction]

    public init(number: Int, line: Int, note: String? = nil, animation: Animation? = nil, actions: [EventAction]) {
        self.number = number
        self.line = line
        self.note = note
        self.animation = animation
        self.actions = actions
    }
}

public enum EventAction: Sendable, Equatable {
    /// State flags, custom states, property sets, actions or an update request for some cells/headers.
    case cells(CellEvent)
    /// Trait changes reach every cell, header and footer of the list.
    case traits(TraitChange)
    /// Scroll to an absolute content offset or by a delta, in points.
    case scroll(ScrollChange)
    /// A new item in a section, at `index` (nil = at the end).
    case insert(ItemDescription, section: String, index: Int?)
    case delete(itemID: String)
    /// Reconfigure an item from its description, as `reconfigureItems`.
    case reload(itemID: String)
    /// Write a frame even when nothing changed. A named capture is also written as `<name>.png`
    /// (cropped to `cell`'s frame plus a margin when a cell is named), so snapshot references do
    /// not depend on frame numbering.
    case capture(name: String?, cell: String? = nil)
    /// An outline item expands or collapses (`expand` / `collapse`).
    case outline(OutlineChange)
}

/// Which view of the list an event addresses.
public enum CellTarget: Sendable, Hashable, CustomStringConvertible {
    case cell(String)
    case header(section: String)
    case footer(section: String)

    public var description: String {
        switch self {
        case .cell(let id): id
        case .header(let s): "header:\(s)"
        case .footer(let s): "footer:\(s)"
        }
    }

    public var isCell: Bool { if case .cell = self { true } else { false } }
}

public struct CellEvent: Sendable, Equatable {
    public var targets: [CellTarget]
    public var state: StateChange
    public var set: [PropertyAssignment]
    public var background: [PropertyAssignment]
    public var perform: [ActionCall]
    /// `setNeedsUpdateConfiguration()`: an update pass with no state change.
    public var setNeedsUpdateConfiguration: Bool
    /// New accessories for the cells (`"set": {"accessories": […]}`); nil = unchanged.
    public var accessories: [CellAccessory]?
    /// Opens (or, with `none`, closes) the cells' swipe actions on an edge; nil = unchanged.
    public var swipe: SwipeEdge?
    /// The swipe goes across the row (`"full": true`): it performs the edge's first action.
    public var fullSwipe = false

    public init(targets: [CellTarget], state: StateChange = StateChange(), set: [PropertyAssignment] = [],
                background: [PropertyAssignment] = [], perform: [ActionCall] = [],
                setNeedsUpdateConfiguration: Bool = false, accessories: [CellAccessory]? = nil, swipe: SwipeEdge? = nil) {
        self.targets = targets
        self.state = state
        self.set = set
        self.background = background
        self.perform = perform
        self.setNeedsUpdateConfiguration = setNeedsUpdateConfiguration
        self.accessories = accessories
        self.swipe = swipe
    }
}

/// Flags an event changes; nil = unchanged. Also the "when" of an update handler rule.
public struct StateChange: Sendable, Equatable {
    public var highlighted: Bool?
    public var selected: Bool?
    public var disabled: Bool?
    public var focused: Bool?
    public var pinned: Bool?
    public var editing: Bool?
    public var expanded: Bool?
    public var swiped: Bool?
    public var reordering: Bool?
    public var drag: CellDragState?
    public var drop: CellDropState?
    /// Custom states in order; a nil value removes the state.
    public var custom: [CustomStateChange]

    public init(highlighted: Bool? = nil, selected: Bool? = nil, disabled: Bool? = nil, focused: Bool? = nil,
                pinned: Bool? = nil, editing: Bool? = nil, expanded: Bool? = nil, swiped: Bool? = nil,
                reordering: Bool? = nil, drag: CellDragState? = nil, drop: CellDropState? = nil,
                custom: [CustomStateChange] = []) {
        self.highlighted = highlighted
        self.selected = selected
        self.disabled = disabled
        self.focused = focused
        self.pinned = pinned
        self.editing = editing
        self.expanded = expanded
        self.swiped = swiped
        self.reordering = reordering
        self.drag = drag
        self.drop = drop
        self.custom = custom
    }

    public var isEmpty: Bool { self == StateChange() }

    /// Applies the change to a cell state.
    public func apply(to state: inout CellConfigurationState) {
        if let highlighted { state.isHighlighted = highlighted }
        if let selected { state.isSelected = selected }
        if let disabled { state.isDisabled = disabled }
        if let focused { state.isFocused = focused }
        if let pinned { state.isPinned = pinned }
        if let editing { state.isEditing = editing }
        if let expanded { state.isExpanded = expanded }
        if let swiped { state.isSwiped = swiped }
        if let reordering { state.isReordering = reordering }
        if let drag { state.cellDragState = drag }
        if let drop { state.cellDropState = drop }
        for c in custom { state.customStates[c.key] = c.value }
    }

    /// Whether every flag this change names has that value in `state` (handler rules).
    public func matches(_ state: CellConfigurationState) -> Bool {
        var probe = state
        apply(to: &probe)
        return probe == state
    }
}

public struct CustomStateChange: Sendable, Hashable {
    public var key: ConfigurationStateCustomKey
    public var value: CustomStateValue?
    public init(key: ConfigurationStateCustomKey, value: CustomStateValue?) { self.key = key; self.value = value }
}

public struct ActionCall: Sendable, Hashable {
    public var name: String
    public var arguments: [PropertyValue]
    public init(name: String, arguments: [PropertyValue] = []) { self.name = name; self.arguments = arguments }
}

/// Trait changes; nil = unchanged.
public struct TraitChange: Sendable, Equatable {
    public var userInterfaceStyle: UserInterfaceStyle?
    public var contentSizeCategory: ContentSizeCategory?
    public var layoutDirection: LayoutDirection?
    public var horizontalSizeClass: UserInterfaceSizeClass?
    public var verticalSizeClass: UserInterfaceSizeClass?
    public var accessibilityContrast: AccessibilityContrast?
    public var userInterfaceLevel: UserInterfaceLevel? = nil
    public var legibilityWeight: LegibilityWeight? = nil
    public var userInterfaceIdiom: UserInterfaceIdiom? = nil

    public init(userInterfaceStyle: UserInterfaceStyle? = nil, contentSizeCategory: ContentSizeCategory? = nil,
                layoutDirection: LayoutDirection? = nil, horizontalSizeClass: UserInterfaceSizeClass? = nil,
                verticalSizeClass: UserInterfaceSizeClass? = nil, accessibilityContrast: AccessibilityContrast? = nil) {
        self.userInterfaceStyle = userInterfaceStyle
        self.contentSizeCategory = contentSizeCategory
        self.layoutDirection = layoutDirection
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.accessibilityContrast = accessibilityContrast
    }

    public func apply(to traits: inout TraitCollection) {
        if let userInterfaceStyle { traits.userInterfaceStyle = userInterfaceStyle }
        if let contentSizeCategory { traits.preferredContentSizeCategory = contentSizeCategory }
        if let layoutDirection { traits.layoutDirection = layoutDirection }
        if let horizontalSizeClass { traits.horizontalSizeClass = horizontalSizeClass }
        if let verticalSizeClass { traits.verticalSizeClass = verticalSizeClass }
        if let accessibilityContrast { traits.accessibilityContrast = accessibilityContrast }
        if let userInterfaceLevel { traits.userInterfaceLevel = userInterfaceLevel }
        if let legibilityWeight { traits.legibilityWeight = legibilityWeight }
        if let userInterfaceIdiom { traits.userInterfaceIdiom = userInterfaceIdiom }
    }
}

public enum ScrollChange: Sendable, Equatable {
    case to(Double)
    case by(Double)
}

/// How an animated event moves from its old to its new look.
public struct Animation: Sendable, Equatable {
    public enum Curve: String, Sendable, CaseIterable { case linear, easeIn, easeOut, easeInOut }

    public var duration: Double
    public var curve: Curve
    /// Intermediate frames rendered between the old and the new look (the last frame is the new look).
    public var frames: Int

    public init(duration: Double, curve: Curve = .easeInOut, frames: Int? = nil) {
        self.duration = duration
        self.curve = curve
        self.frames = frames ?? max(2, min(30, Int((duration * 30).rounded())))
    }

    /// Progress 0…1 at time fraction `t`, along the curve (cubic easing).
    public func progress(at t: Double) -> Double {
        let t = min(1, max(0, t))
        switch curve {
        case .linear: return t
        case .easeIn: return t * t * t
        case .easeOut: return 1 - (1 - t) * (1 - t) * (1 - t)
        case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow3(-2 * t + 2) / 2
        }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}
