import CCellHostABI
import CellKit

/// Getters and setters of a property called as typed C function pointers: the encoding fixes the
/// C signature (`T get(const cellhost_config *, const cellhost_property *)` and
/// `void set(cellhost_config *, const cellhost_property *, T)`), so one switch on it picks the
/// function type and the call is an ordinary C call, with no argument frame for libffi to
/// classify. libffi stays for actions, whose argument lists vary, and for closures; the libffi
/// path of properties stays too (`valueThroughFFI`, `setThroughFFI`) so `validate` can check the
/// two paths agree.
///
/// Invariant: every `ValueEncoding` has a getter and a setter type here whose C signature is the
/// one plugin.h states for it; a plugin's descriptor was validated at load, so its encoding is
/// known and its getter is not NULL.
enum TypedPropertyCall {
    typealias Config = OpaquePointer?
    typealias Descriptor = UnsafePointer<cellhost_property>?

    typealias BoolGetter = @convention(c) (Config, Descriptor) -> Bool
    typealias Int64Getter = @convention(c) (Config, Descriptor) -> Int64
    typealias DoubleGetter = @convention(c) (Config, Descriptor) -> Double
    typealias StringGetter = @convention(c) (Config, Descriptor) -> UnsafePointer<CChar>?
    typealias ColorGetter = @convention(c) (Config, Descriptor) -> cellhost_color
    typealias SizeGetter = @convention(c) (Config, Descriptor) -> cellhost_size
    typealias InsetsGetter = @convention(c) (Config, Descriptor) -> cellhost_insets
    typealias TransformerGetter = @convention(c) (Config, Descriptor) -> cellhost_color_transformer?

    typealias BoolSetter = @convention(c) (Config, Descriptor, Bool) -> Void
    typealias Int64Setter = @convention(c) (Config, Descriptor, Int64) -> Void
    typealias DoubleSetter = @convention(c) (Config, Descriptor, Double) -> Void
    typealias StringSetter = @convention(c) (Config, Descriptor, UnsafePointer<CChar>?) -> Void
    typealias ColorSetter = @convention(c) (Config, Descriptor, cellhost_color) -> Void
    typealias SizeSetter = @convention(c) (Config, Descriptor, cellhost_size) -> Void
    typealias InsetsSetter = @convention(c) (Config, Descriptor, cellhost_insets) -> Void
    typealias TransformerSetter = @convention(c) (Config, Descriptor, cellhost_color_transformer?) -> Void

    /// Reads a property of `encoding` through its getter.
    static func value(_ encoding: ValueEncoding, getter: cellhost_fn, config: OpaquePointer,
                      descriptor: UnsafePointer<cellhost_property>) -> PropertyValue {
        switch encoding {
        case .bool: .bool(unsafeBitCast(getter, to: BoolGetter.self)(config, descriptor))
        case .int64: .int(unsafeBitCast(getter, to: Int64Getter.self)(config, descriptor))
        case .double: .double(unsafeBitCast(getter, to: DoubleGetter.self)(config, descriptor))
        case .string: unsafeBitCast(getter, to: StringGetter.self)(config, descriptor).map { .string(String(cString: $0)) } ?? .none
        case .color: .color(unsafeBitCast(getter, to: ColorGetter.self)(config, descriptor).color)
        case .size: .size(unsafeBitCast(getter, to: SizeGetter.self)(config, descriptor).size)
        case .insets: .insets(unsafeBitCast(getter, to: InsetsGetter.self)(config, descriptor).insets)
        case .transformer:
            ColorTransformerBridge.shared.transformer(for: unsafeBitCast(getter, to: TransformerGetter.self)(config, descriptor))
                .map { .transformer($0) } ?? .none
        }
    }

    /// Passes the value held in `slot` (laid out as `encoding`'s C type, as `FFIValueBuffer`
    /// holds it) to the setter: the conversions of values that are not already of the setter's
    /// type (an int for a double, colour names, transformers) are shared with the libffi path.
    static func set(_ encoding: ValueEncoding, setter: cellhost_fn, config: OpaquePointer,
                    descriptor: UnsafePointer<cellhost_property>, slot: UnsafeRawPointer) {
        switch encoding {
        case .bool: unsafeBitCast(setter, to: BoolSetter.self)(config, descriptor, slot.load(as: UInt8.self) != 0)
        case .int64: unsafeBitCast(setter, to: Int64Setter.self)(config, descriptor, slot.load(as: Int64.self))
        case .double: unsafeBitCast(setter, to: DoubleSetter.self)(config, descriptor, slot.load(as: Double.self))
        case .string: unsafeBitCast(setter, to: StringSetter.self)(config, descriptor, slot.load(as: UnsafePointer<CChar>?.self))
        case .color: unsafeBitCast(setter, to: ColorSetter.self)(config, descriptor, slot.load(as: cellhost_color.self))
        case .size: unsafeBitCast(setter, to: SizeSetter.self)(config, descriptor, slot.load(as: cellhost_size.self))
        case .insets: unsafeBitCast(setter, to: InsetsSetter.self)(config, descriptor, slot.load(as: cellhost_insets.self))
        case .transformer:
            unsafeBitCast(setter, to: TransformerSetter.self)(config, descriptor, slot.load(as: cellhost_color_transformer?.self))
        }
    }
}
