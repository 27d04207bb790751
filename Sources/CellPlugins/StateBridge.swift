import Glibc
import CCellHostABI
import CellKit

extension cellhost_traits {
    /// The ABI form of `t`. Each enumeration crosses as its position in `allCases`, read from a
    /// switch (`TraitOrdinalTests` checks the switches against `allCases`): looking the position
    /// up in `allCases` built an array per trait on every call into a plugin.
    init(_ t: TraitCollection) {
        self.init(header: .host(for: cellhost_traits.self),
                  user_interface_style: t.userInterfaceStyle == .dark ? CELLHOST_STYLE_DARK : CELLHOST_STYLE_LIGHT,
                  content_size_category: t.preferredContentSizeCategory.abiOrdinal,
                  layout_direction: t.layoutDirection == .rightToLeft ? CELLHOST_RTL : CELLHOST_LTR,
                  horizontal_size_class: t.horizontalSizeClass.abiOrdinal,
                  vertical_size_class: t.verticalSizeClass.abiOrdinal,
                  list_environment: t.listEnvironment.abiOrdinal,
                  accessibility_contrast: t.accessibilityContrast == .high ? CELLHOST_CONTRAST_HIGH : CELLHOST_CONTRAST_NORMAL,
                  display_scale: t.displayScale)
    }

    /// The traits a plugin handed back. Out-of-range values fall back to the defaults.
    var traitCollection: TraitCollection {
        TraitCollection(
            userInterfaceStyle: user_interface_style == CELLHOST_STYLE_DARK ? .dark : .light,
            preferredContentSizeCategory: ContentSizeCategory(abiOrdinal: content_size_category) ?? .large,
            layoutDirection: layout_direction == CELLHOST_RTL ? .rightToLeft : .leftToRight,
            horizontalSizeClass: UserInterfaceSizeClass(abiOrdinal: horizontal_size_class) ?? .compact,
            verticalSizeClass: UserInterfaceSizeClass(abiOrdinal: vertical_size_class) ?? .regular,
            displayScale: display_scale > 0 ? display_scale : 2,
            listEnvironment: ListEnvironment(abiOrdinal: list_environment) ?? .none,
            accessibilityContrast: accessibility_contrast == CELLHOST_CONTRAST_HIGH ? .high : .normal)
    }

    /// Whether a plugin passed the same traits: every field the host reads, compared as values
    /// (padding bytes are not compared; a NaN scale never matches, so it is always converted anew).
    func hasSameValues(as other: cellhost_traits) -> Bool {
        user_interface_style == other.user_interface_style && content_size_category == other.content_size_category
            && layout_direction == other.layout_direction && horizontal_size_class == other.horizontal_size_class
            && vertical_size_class == other.vertical_size_class && list_environment == other.list_environment
            && accessibility_contrast == other.accessibility_contrast && display_scale == other.display_scale
    }
}

extension TraitCollection {
    /// The traits behind a pointer a plugin passed; NULL means the default traits.
    init(abi traits: UnsafePointer<cellhost_traits>?) { self = traits?.pointee.traitCollection ?? .default }
}

extension cellhost_extra_traits {
    /// The ABI 1.2 traits of `t`, which travel at the end of `cellhost_state` and `cellhost_context`.
    init(_ t: TraitCollection) {
        self.init(user_interface_level: t.userInterfaceLevel == .elevated ? CELLHOST_LEVEL_ELEVATED : CELLHOST_LEVEL_BASE,
                  legibility_weight: t.legibilityWeight == .bold ? CELLHOST_LEGIBILITY_BOLD : CELLHOST_LEGIBILITY_REGULAR,
                  user_interface_idiom: t.userInterfaceIdiom == .pad ? CELLHOST_IDIOM_PAD : CELLHOST_IDIOM_PHONE)
    }

    /// `traits` with these set on it. Unknown values fall back to the defaults.
    func applied(to traits: TraitCollection) -> TraitCollection {
        var t = traits
        t.userInterfaceLevel = user_interface_level == CELLHOST_LEVEL_ELEVATED ? .elevated : .base
        t.legibilityWeight = legibility_weight == CELLHOST_LEGIBILITY_BOLD ? .bold : .regular
        t.userInterfaceIdiom = user_interface_idiom == CELLHOST_IDIOM_PAD ? .pad : .phone
        return t
    }

    func hasSameValues(as other: cellhost_extra_traits) -> Bool {
        user_interface_level == other.user_interface_level && legibility_weight == other.legibility_weight
            && user_interface_idiom == other.user_interface_idiom
    }
}

extension cellhost_state {
    /// Whether a state a plugin handed back carries the ABI 1.2 traits (a plugin built against 1.1
    /// may hand back a shorter state of its own).
    var hasExtraTraits: Bool {
        Int(header.struct_size) >= MemoryLayout<cellhost_state>.offset(of: \.extra_traits)! + MemoryLayout<cellhost_extra_traits>.size
    }

    /// The state behind a pointer a plugin handed back, reading no more than its struct_size says
    /// it holds: a 1.1 plugin's own state ends before `extra_traits`, which then stays zero
    /// (base level, regular weight, phone).
    init(handedBack pointer: UnsafePointer<cellhost_state>) {
        self.init()
        let header = UnsafeRawPointer(pointer).load(as: cellhost_header.self)
        let length = min(Int(header.struct_size), MemoryLayout<cellhost_state>.size)
        withUnsafeMutableBytes(of: &self) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: length)) }
    }

    /// The state's traits, the ABI 1.2 ones included when present.
    var traitCollection: TraitCollection {
        hasExtraTraits ? extra_traits.applied(to: traits.traitCollection) : traits.traitCollection
    }
}

/// An enumeration that crosses the ABI as its position in `allCases`.
protocol ABIOrdinal: CaseIterable {
    var abiOrdinal: Int32 { get }
    init?(abiOrdinal: Int32)
}

extension ContentSizeCategory: ABIOrdinal {
    var abiOrdinal: Int32 {
        switch self {
        case .extraSmall: 0
        case .small: 1
        case .medium: 2
        case .large: 3
        case .extraLarge: 4
        case .extraExtraLarge: 5
        case .extraExtraExtraLarge: 6
        case .accessibilityMedium: 7
        case .accessibilityLarge: 8
        case .accessibilityExtraLarge: 9
        case .accessibilityExtraExtraLarge: 10
        case .accessibilityExtraExtraExtraLarge: 11
        }
    }

    init?(abiOrdinal: Int32) {
        switch abiOrdinal {
        case 0: self = .extraSmall
        case 1: self = .small
        case 2: self = .medium
        case 3: self = .large
        case 4: self = .extraLarge
        case 5: self = .extraExtraLarge
        case 6: self = .extraExtraExtraLarge
        case 7: self = .accessibilityMedium
        case 8: self = .accessibilityLarge
        case 9: self = .accessibilityExtraLarge
        case 10: self = .accessibilityExtraExtraLarge
        case 11: self = .accessibilityExtraExtraExtraLarge
        default: return nil
        }
    }
}

extension UserInterfaceSizeClass: ABIOrdinal {
    var abiOrdinal: Int32 {
        switch self {
        case .unspecified: CELLHOST_SIZE_CLASS_UNSPECIFIED
        case .compact: CELLHOST_SIZE_CLASS_COMPACT
        case .regular: CELLHOST_SIZE_CLASS_REGULAR
        }
    }

    init?(abiOrdinal: Int32) {
        switch abiOrdinal {
        case CELLHOST_SIZE_CLASS_UNSPECIFIED: self = .unspecified
        case CELLHOST_SIZE_CLASS_COMPACT: self = .compact
        case CELLHOST_SIZE_CLASS_REGULAR: self = .regular
        default: return nil
        }
    }
}

extension ListEnvironment: ABIOrdinal {
    var abiOrdinal: Int32 {
        switch self {
        case .none: 0
        case .plain: 1
        case .grouped: 2
        case .insetGrouped: 3
        case .sidebar: 4
        case .sidebarPlain: 5
        }
    }

    init?(abiOrdinal: Int32) {
        switch abiOrdinal {
        case 0: self = ListEnvironment.none
        case 1: self = .plain
        case 2: self = .grouped
        case 3: self = .insetGrouped
        case 4: self = .sidebar
        case 5: self = .sidebarPlain
        default: return nil
        }
    }
}

extension CellDragState {
    var abiValue: Int32 {
        switch self {
        case .none: CELLHOST_DRAG_NONE
        case .lifting: CELLHOST_DRAG_LIFTING
        case .dragging: CELLHOST_DRAG_DRAGGING
        }
    }
}

extension CellDropState {
    var abiValue: Int32 {
        switch self {
        case .none: CELLHOST_DROP_NONE
        case .notTargeted: CELLHOST_DROP_NOT_TARGETED
        case .targeted: CELLHOST_DROP_TARGETED
        }
    }
}

/// Hands `state` to `body` as a `cellhost_state` that is valid only during the call. Custom
/// states are sorted by key, as plugin.h promises.
func withABIState<R>(_ state: any ConfigurationState, _ body: (UnsafePointer<cellhost_state>) -> R) -> R {
    // The dynamic type is compared, not cast, and a cell state is read where the existential holds
    // it: a cast is a runtime type check, and a copy retains and releases the custom states.
    func opened<S: ConfigurationState>(_ s: S) -> R {
        guard S.self == CellConfigurationState.self else { return withABIState(view: s.viewState, body) }
        return withUnsafePointer(to: s) {
            withABIState(cell: UnsafeRawPointer($0).assumingMemoryBound(to: CellConfigurationState.self), body)
        }
    }
    return opened(state)
}

func withABIState<R>(cell: UnsafePointer<CellConfigurationState>, _ body: (UnsafePointer<cellhost_state>) -> R) -> R {
    var flags: UInt32 = 0
    func flag(_ on: Bool, _ bit: UInt32) { if on { flags |= bit } }
    flag(cell.pointee.isHighlighted, CELLHOST_STATE_HIGHLIGHTED); flag(cell.pointee.isSelected, CELLHOST_STATE_SELECTED)
    flag(cell.pointee.isDisabled, CELLHOST_STATE_DISABLED); flag(cell.pointee.isFocused, CELLHOST_STATE_FOCUSED)
    flag(cell.pointee.isPinned, CELLHOST_STATE_PINNED); flag(cell.pointee.isEditing, CELLHOST_STATE_EDITING)
    flag(cell.pointee.isExpanded, CELLHOST_STATE_EXPANDED); flag(cell.pointee.isSwiped, CELLHOST_STATE_SWIPED)
    flag(cell.pointee.isReordering, CELLHOST_STATE_REORDERING)
    var abi = cellhost_state(header: .host(for: cellhost_state.self), kind: CELLHOST_STATE_KIND_CELL, flags: flags,
                             drag_state: cell.pointee.cellDragState.abiValue, drop_state: cell.pointee.cellDropState.abiValue,
                             traits: cellhost_traits(cell.pointee.traitCollection), custom_states: nil, custom_state_count: 0,
                             extra_traits: cellhost_extra_traits(cell.pointee.traitCollection))
    if cell.pointee.customStates.isEmpty { return withUnsafePointer(to: &abi, body) }
    return withCustomStates(cell.pointee.customStates, in: &abi, body)
}

private func withABIState<R>(view: ViewConfigurationState, _ body: (UnsafePointer<cellhost_state>) -> R) -> R {
    var flags: UInt32 = 0
    func flag(_ on: Bool, _ bit: UInt32) { if on { flags |= bit } }
    flag(view.isHighlighted, CELLHOST_STATE_HIGHLIGHTED); flag(view.isSelected, CELLHOST_STATE_SELECTED)
    flag(view.isDisabled, CELLHOST_STATE_DISABLED); flag(view.isFocused, CELLHOST_STATE_FOCUSED)
    flag(view.isPinned, CELLHOST_STATE_PINNED)
    var abi = cellhost_state(header: .host(for: cellhost_state.self), kind: CELLHOST_STATE_KIND_VIEW, flags: flags,
                             drag_state: CELLHOST_DRAG_NONE, drop_state: CELLHOST_DROP_NONE,
                             traits: cellhost_traits(view.traitCollection), custom_states: nil, custom_state_count: 0,
                             extra_traits: cellhost_extra_traits(view.traitCollection))
    if view.customStates.isEmpty { return withUnsafePointer(to: &abi, body) }
    return withCustomStates(view.customStates, in: &abi, body)
}

/// `abi` with `customStates` attached, sorted by key, for the duration of `body`.
private func withCustomStates<R>(_ customStates: [ConfigurationStateCustomKey: CustomStateValue], in abi: inout cellhost_state,
                                 _ body: (UnsafePointer<cellhost_state>) -> R) -> R {
    // Keys and string values need C storage for the duration of the call.
    let entries = customStates.sorted { $0.key < $1.key }
    var strings: [UnsafeMutablePointer<CChar>] = []
    strings.reserveCapacity(entries.count * 2)
    defer { strings.forEach { free($0) } }
    var custom = [cellhost_custom_state]()
    custom.reserveCapacity(entries.count)
    for (key, value) in entries {
        let k = strdup(key.rawValue)!
        strings.append(k)
        var c = cellhost_custom_state()
        c.key = UnsafePointer(k)
        switch value {
        case .bool(let b): c.kind = CELLHOST_VALUE_BOOL; c.value.b = b
        case .int(let i): c.kind = CELLHOST_VALUE_INT; c.value.i = i
        case .double(let d): c.kind = CELLHOST_VALUE_DOUBLE; c.value.d = d
        case .string(let s):
            let p = strdup(s)!
            strings.append(p)
            c.kind = CELLHOST_VALUE_STRING; c.value.s = UnsafePointer(p)
        }
        custom.append(c)
    }
    return custom.withUnsafeBufferPointer { buffer in
        abi.custom_states = buffer.baseAddress
        abi.custom_state_count = UInt32(buffer.count)
        return withUnsafePointer(to: &abi, body)
    }
}

/// A `cellhost_state` a plugin handed back, as a value to compare: kind, flags, drag and drop
/// states and traits, everything `ABIState.configurationState(from:)` reads but custom states.
/// nil for a state with custom states (those are compared as converted states only).
struct ABIStateKey: Equatable {
    /// nil: the plugin passed no state.
    private let state: cellhost_state?

    init?(_ pointer: UnsafePointer<cellhost_state>?) {
        guard let pointer else { state = nil; return }
        guard pointer.pointee.custom_state_count == 0 else { return nil }
        state = cellhost_state(handedBack: pointer)
    }

    static func == (a: ABIStateKey, b: ABIStateKey) -> Bool {
        switch (a.state, b.state) {
        case (nil, nil): true
        case (let a?, let b?):
            a.kind == b.kind && a.flags == b.flags && a.drag_state == b.drag_state && a.drop_state == b.drop_state
                && a.traits.hasSameValues(as: b.traits) && a.hasExtraTraits == b.hasExtraTraits
                && (!a.hasExtraTraits || a.extra_traits.hasSameValues(as: b.extra_traits))
        default: false
        }
    }
}

/// A `cellhost_state` a plugin handed back (to an embedded list view) as a CellKit state.
enum ABIState {
    static func configurationState(from pointer: UnsafePointer<cellhost_state>) -> any ConfigurationState {
        let s = cellhost_state(handedBack: pointer)
        var custom: [ConfigurationStateCustomKey: CustomStateValue] = [:]
        if let entries = s.custom_states {
            for i in 0..<Int(s.custom_state_count) {
                let e = entries[i]
                guard let key = e.key else { continue }
                let value: CustomStateValue? = switch e.kind {
                case CELLHOST_VALUE_BOOL: .bool(e.value.b)
                case CELLHOST_VALUE_INT: .int(e.value.i)
                case CELLHOST_VALUE_DOUBLE: .double(e.value.d)
                case CELLHOST_VALUE_STRING: e.value.s.map { .string(String(cString: $0)) }
                default: nil
                }
                if let value { custom[ConfigurationStateCustomKey(String(cString: key))] = value }
            }
        }
        func on(_ bit: UInt32) -> Bool { s.flags & bit != 0 }
        let traits = s.traitCollection
        guard s.kind == CELLHOST_STATE_KIND_CELL else {
            return ViewConfigurationState(traitCollection: traits, isHighlighted: on(CELLHOST_STATE_HIGHLIGHTED),
                                          isSelected: on(CELLHOST_STATE_SELECTED), isDisabled: on(CELLHOST_STATE_DISABLED),
                                          isFocused: on(CELLHOST_STATE_FOCUSED), isPinned: on(CELLHOST_STATE_PINNED),
                                          customStates: custom)
        }
        let drag: CellDragState = s.drag_state == CELLHOST_DRAG_LIFTING ? .lifting
            : s.drag_state == CELLHOST_DRAG_DRAGGING ? .dragging : .none
        let drop: CellDropState = s.drop_state == CELLHOST_DROP_NOT_TARGETED ? .notTargeted
            : s.drop_state == CELLHOST_DROP_TARGETED ? .targeted : .none
        return CellConfigurationState(traitCollection: traits, isHighlighted: on(CELLHOST_STATE_HIGHLIGHTED),
                                      isSelected: on(CELLHOST_STATE_SELECTED), isDisabled: on(CELLHOST_STATE_DISABLED),
                                      isFocused: on(CELLHOST_STATE_FOCUSED), isPinned: on(CELLHOST_STATE_PINNED),
                                      isEditing: on(CELLHOST_STATE_EDITING), isExpanded: on(CELLHOST_STATE_EXPANDED),
                                      isSwiped: on(CELLHOST_STATE_SWIPED), isReordering: on(CELLHOST_STATE_REORDERING),
                                      cellDragState: drag, cellDropState: drop, customStates: custom)
    }
}
