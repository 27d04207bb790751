/// The host services (`cellhost_host`) for Swift plugin code. Set once by the SDK's `init`
/// before the host calls anything else; read-only afterwards.
///
/// Names go to the host through `withCString`: a `String` passed where a C function pointer
/// takes `const char *` is converted through `utf8CString`, a new array on every call.
public enum Host {
    /// Written once, before any other call, and only read afterwards: no access can overlap a
    /// write, so the run-time exclusivity check every drawing call would pay is dropped.
    @exclusivity(unchecked) nonisolated(unsafe) static var table: UnsafePointer<cellhost_host>?

    public enum LogLevel: Int32 { case debug = 0, info, warning, error }

    /// A message in the host's trace, tagged with this plugin. Any thread.
    public static func log(_ level: LogLevel, _ message: String) {
        guard let log = table?.pointee.log else { return }
        message.withCString { log(level.rawValue, $0) }
    }

    /// A named system colour ("label", "systemBlue", …) for `traits` (nil = default traits).
    public static func systemColor(_ name: String, traits: cellhost_traits? = nil) -> cellhost_color? {
        guard let systemColor = table?.pointee.system_color else { return nil }
        var out = cellhost_color()
        let found = name.withCString { name in withOptionalPointer(traits) { systemColor($0, name, &out) } }
        return found ? out : nil
    }

    /// The Dynamic Type font of `style` (CELLHOST_TEXT_STYLE_*) for `traits`.
    public static func font(_ style: cellhost_text_style, traits: cellhost_traits? = nil) -> cellhost_font {
        guard let defaultFont = table?.pointee.default_font else {
            return cellhost_font(family: nil, point_size: 17, weight: CELLHOST_FONT_REGULAR, italic: false, text_style: style)
        }
        return withOptionalPointer(traits) { defaultFont($0, style) }
    }

    /// The layout margins of a default list cell for `traits`.
    public static func layoutMargins(traits: cellhost_traits? = nil) -> cellhost_insets {
        guard let margins = table?.pointee.default_layout_margins else { return cellhost_insets() }
        return withOptionalPointer(traits) { margins($0) }
    }

    /// A built-in colour transformer by name ("identity", "grayscale", "preferredTint",
    /// "monochromeTint", "pressed", "faded").
    public static func colorTransformer(_ name: String) -> cellhost_color_transformer? {
        guard let colorTransformer = table?.pointee.color_transformer else { return nil }
        return name.withCString { colorTransformer($0) }
    }

    /// `first` then `second`, as one host transformer.
    public static func compose(_ first: cellhost_color_transformer?, _ second: cellhost_color_transformer?)
        -> cellhost_color_transformer?
    {
        table?.pointee.compose_color_transformers?(first, second)
    }

    private static func withOptionalPointer<T, R>(_ value: T?, _ body: (UnsafePointer<T>?) -> R) -> R {
        guard var value else { return body(nil) }
        return withUnsafePointer(to: &value) { body($0) }
    }
}

extension cellhost_color {
    /// `transformer(self)`, or `self` when there is none.
    public func transformed(by transformer: cellhost_color_transformer?) -> cellhost_color {
        transformer.map { $0(self) } ?? self
    }

    public func withAlpha(_ alpha: Double) -> cellhost_color {
        cellhost_color(red: red, green: green, blue: blue, alpha: alpha)
    }
}

extension cellhost_rect {
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }
}

/// A configuration state as the host passed it: valid only during the call that received it.
public struct PluginState {
    public let pointer: UnsafePointer<cellhost_state>

    init(_ pointer: UnsafePointer<cellhost_state>) { self.pointer = pointer }

    public var traits: cellhost_traits { pointer.pointee.traits }
    /// The elevated level, Bold Text and the idiom (ABI 1.2); zero (base, regular, phone) when
    /// the state ends before them.
    public var extraTraits: cellhost_extra_traits {
        extraTraitsField(of: pointer, at: MemoryLayout<cellhost_state>.offset(of: \.extra_traits)!)
    }
    public var isCell: Bool { pointer.pointee.kind == CELLHOST_STATE_KIND_CELL }
    private func flag(_ bit: UInt32) -> Bool { pointer.pointee.flags & bit != 0 }
    public var isHighlighted: Bool { flag(CELLHOST_STATE_HIGHLIGHTED) }
    public var isSelected: Bool { flag(CELLHOST_STATE_SELECTED) }
    public var isDisabled: Bool { flag(CELLHOST_STATE_DISABLED) }
    public var isFocused: Bool { flag(CELLHOST_STATE_FOCUSED) }
    public var isEditing: Bool { flag(CELLHOST_STATE_EDITING) }
    public var isSwiped: Bool { flag(CELLHOST_STATE_SWIPED) }

    /// Whether the custom state `key` is present and truthy.
    public func isOn(_ key: String) -> Bool {
        let s = pointer.pointee
        guard let entries = s.custom_states else { return false }
        for i in 0..<Int(s.custom_state_count) where String(cString: entries[i].key) == key {
            let e = entries[i]
            switch e.kind {
            case CELLHOST_VALUE_BOOL: return e.value.b
            case CELLHOST_VALUE_INT: return e.value.i != 0
            case CELLHOST_VALUE_DOUBLE: return e.value.d != 0
            default: return e.value.s.map { $0.pointee != 0 } ?? false
            }
        }
        return false
    }

    /// The state's flags and traits without custom states, safe to keep after the call.
    public var snapshot: cellhost_state {
        var copy = pointer.pointee
        copy.custom_states = nil
        copy.custom_state_count = 0
        return copy
    }
}

/// Whether two transformers are the same function (transformers compare by identity).
public func isSameTransformer(_ a: cellhost_color_transformer?, _ b: cellhost_color_transformer?) -> Bool {
    func address(_ t: cellhost_color_transformer?) -> UInt { t.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
    return address(a) == address(b)
}

extension cellhost_state {
    /// Same kind, flags, drag/drop states and traits (custom states are not kept in a snapshot).
    /// Configurations that keep a state snapshot compare it with this, so a trait change alone
    /// (dark mode, text size) still makes them unequal.
    public func hasSameFlagsAndTraits(as other: cellhost_state) -> Bool {
        kind == other.kind && flags == other.flags && drag_state == other.drag_state && drop_state == other.drop_state
            && traits.isSame(as: other.traits) && extra_traits.isSame(as: other.extra_traits)
    }
}

extension cellhost_extra_traits {
    public func isSame(as other: cellhost_extra_traits) -> Bool {
        user_interface_level == other.user_interface_level && legibility_weight == other.legibility_weight
            && user_interface_idiom == other.user_interface_idiom
    }
}

/// The `cellhost_extra_traits` at `offset` in a host struct, or zero when its struct_size says
/// the struct ends before them (plugin.h's CELLHOST_HAS_FIELD).
func extraTraitsField<T>(of pointer: UnsafePointer<T>, at offset: Int) -> cellhost_extra_traits {
    let raw = UnsafeRawPointer(pointer)
    let size = Int(raw.load(as: cellhost_header.self).struct_size)
    guard size >= offset + MemoryLayout<cellhost_extra_traits>.size else { return cellhost_extra_traits() }
    return raw.load(fromByteOffset: offset, as: cellhost_extra_traits.self)
}

extension cellhost_traits {
    public func isSame(as other: cellhost_traits) -> Bool {
        user_interface_style == other.user_interface_style && content_size_category == other.content_size_category
            && layout_direction == other.layout_direction && horizontal_size_class == other.horizontal_size_class
            && vertical_size_class == other.vertical_size_class && list_environment == other.list_environment
            && accessibility_contrast == other.accessibility_contrast && display_scale == other.display_scale
    }
}
