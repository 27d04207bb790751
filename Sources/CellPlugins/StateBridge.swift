import Glibc
import CCellHostABI
import CellKit

extension cellhost_traits {
    init(_ t: TraitCollection) {
        func index<E: CaseIterable & Equatable>(_ v: E) -> Int32 where E.AllCases == [E] { Int32(E.allCases.firstIndex(of: v)!) }
        self.init(header: .host(for: cellhost_traits.self),
                  user_interface_style: t.userInterfaceStyle == .dark ? CELLHOST_STYLE_DARK : CELLHOST_STYLE_LIGHT,
                  content_size_category: Int32(t.preferredContentSizeCategory.index),
                  layout_direction: t.layoutDirection == .rightToLeft ? CELLHOST_RTL : CELLHOST_LTR,
                  horizontal_size_class: index(t.horizontalSizeClass),
                  vertical_size_class: index(t.verticalSizeClass),
                  list_environment: index(t.listEnvironment),
                  accessibility_contrast: t.accessibilityContrast == .high ? CELLHOST_CONTRAST_HIGH : CELLHOST_CONTRAST_NORMAL,
                  display_scale: t.displayScale)
    }

    /// The traits a plugin handed back. Out-of-range values fall back to the defaults.
    var traitCollection: TraitCollection {
        func pick<E: CaseIterable>(_ raw: Int32, _ fallback: E) -> E where E.AllCases == [E] {
            raw >= 0 && Int(raw) < E.allCases.count ? E.allCases[Int(raw)] : fallback
        }
        return TraitCollection(
            userInterfaceStyle: user_interface_style == CELLHOST_STYLE_DARK ? .dark : .light,
            preferredContentSizeCategory: pick(content_size_category, ContentSizeCategory.large),
            layoutDirection: layout_direction == CELLHOST_RTL ? .rightToLeft : .leftToRight,
            horizontalSizeClass: pick(horizontal_size_class, UserInterfaceSizeClass.compact),
            verticalSizeClass: pick(vertical_size_class, UserInterfaceSizeClass.regular),
            displayScale: display_scale > 0 ? display_scale : 2,
            listEnvironment: pick(list_environment, ListEnvironment.none),
            accessibilityContrast: accessibility_contrast == CELLHOST_CONTRAST_HIGH ? .high : .normal)
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
    var flags: UInt32 = 0
    let kind: Int32
    var drag = CELLHOST_DRAG_NONE, drop = CELLHOST_DROP_NONE
    func flag(_ on: Bool, _ bit: UInt32) { if on { flags |= bit } }
    if let cell = state as? CellConfigurationState {
        kind = CELLHOST_STATE_KIND_CELL
        flag(cell.isHighlighted, CELLHOST_STATE_HIGHLIGHTED); flag(cell.isSelected, CELLHOST_STATE_SELECTED)
        flag(cell.isDisabled, CELLHOST_STATE_DISABLED); flag(cell.isFocused, CELLHOST_STATE_FOCUSED)
        flag(cell.isPinned, CELLHOST_STATE_PINNED); flag(cell.isEditing, CELLHOST_STATE_EDITING)
        flag(cell.isExpanded, CELLHOST_STATE_EXPANDED); flag(cell.isSwiped, CELLHOST_STATE_SWIPED)
        flag(cell.isReordering, CELLHOST_STATE_REORDERING)
        drag = cell.cellDragState.abiValue
        drop = cell.cellDropState.abiValue
    } else {
        let view = state.viewState
        kind = CELLHOST_STATE_KIND_VIEW
        flag(view.isHighlighted, CELLHOST_STATE_HIGHLIGHTED); flag(view.isSelected, CELLHOST_STATE_SELECTED)
        flag(view.isDisabled, CELLHOST_STATE_DISABLED); flag(view.isFocused, CELLHOST_STATE_FOCUSED)
        flag(view.isPinned, CELLHOST_STATE_PINNED)
    }
    var abi = cellhost_state(header: .host(for: cellhost_state.self), kind: kind, flags: flags, drag_state: drag,
                             drop_state: drop, traits: cellhost_traits(state.traitCollection),
                             custom_states: nil, custom_state_count: 0)
    if state.customStates.isEmpty { return withUnsafePointer(to: &abi, body) }

    // Keys and string values need C storage for the duration of the call.
    let entries = state.customStates.sorted { $0.key < $1.key }
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

/// A `cellhost_state` a plugin handed back (to an embedded list view) as a CellKit state.
enum ABIState {
    static func configurationState(from pointer: UnsafePointer<cellhost_state>) -> any ConfigurationState {
        let s = pointer.pointee
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
        let traits = s.traits.traitCollection
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
