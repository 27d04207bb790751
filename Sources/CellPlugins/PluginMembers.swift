import CCellHostABI
import Glibc
import CFFI
import CellKit
import Synchronization

/// A property a plugin type declares: its name, type encoding, and its getter and setter.
/// The host calls them as typed C function pointers chosen by the encoding
/// (`TypedPropertyCall`): a property set from a stream is an ordinary C call, with no
/// allocation and no argument frame to build. The same calls through libffi (one cif per call
/// signature, prepared on first use and kept) remain as `valueThroughFFI` / `setThroughFFI`, the
/// path `validate` checks the typed one against.
public final class PluginProperty: @unchecked Sendable {
    public let name: String
    public let encoding: ValueEncoding
    /// The plugin's C functions and its descriptor (passed back as the second argument).
    public let getter: cellhost_fn
    public let setter: cellhost_fn?
    public let descriptor: UnsafePointer<cellhost_property>
    private let cache: FFISignatureCache
    private let getterCIF = Atomic<UnsafeMutablePointer<ffi_cif>?>(nil)
    private let setterCIF = Atomic<UnsafeMutablePointer<ffi_cif>?>(nil)

    init(name: String, encoding: ValueEncoding, getter: cellhost_fn, setter: cellhost_fn?,
         descriptor: UnsafePointer<cellhost_property>, cache: FFISignatureCache) {
        self.name = name
        self.encoding = encoding
        self.getter = getter
        self.setter = setter
        self.descriptor = descriptor
        self.cache = cache
    }

    public var isReadOnly: Bool { setter == nil }

    /// The cif for `signature`, kept in `slot` after the first call. Every thread that races on
    /// the first call gets the same pointer from the cache, so the slot only ever holds one value.
    @inline(__always)
    private func cif(_ slot: borrowing Atomic<UnsafeMutablePointer<ffi_cif>?>,
                     _ signature: CallSignature) throws(FFIPrepareError) -> UnsafeMutablePointer<ffi_cif> {
        if let cif = slot.load(ordering: .acquiring) { return cif }
        let cif = try cache.cif(for: signature)
        slot.store(cif, ordering: .releasing)
        return cif
    }

    /// Reads the property of the configuration `handle` through its getter, called as the typed
    /// C function its encoding names.
    public func value(of handle: OpaquePointer) -> PropertyValue {
        TypedPropertyCall.value(encoding, getter: getter, config: handle, descriptor: descriptor)
    }

    /// Reads the property through libffi instead: what `validate` compares `value(of:)` with.
    /// `.none` if libffi cannot prepare the getter's call (it can for every encoding of the ABI).
    public func valueThroughFFI(of handle: OpaquePointer) -> PropertyValue {
        guard let cif = try? cif(getterCIF, .getter(encoding)) else { return .none }
        var result = FFIValueBuffer()
        withUnsafeMutableBytes(of: &result) {
            cffi_call_getter(cif, getter, UnsafeMutableRawPointer(handle), descriptor, $0.baseAddress)
        }
        return result.value(as: encoding)
    }

    /// The setter, or why the property cannot be set to a value of `expected`'s kind.
    @inline(__always)
    private func settable(_ expected: ValueEncoding, got: @autoclosure () -> String) throws(ConfigurationPropertyError) -> cellhost_fn {
        guard let setter else { throw .invalidValue(property: name, reason: "the property is read-only") }
        guard encoding == expected else { throw .typeMismatch(property: name, expected: encoding.kindName, got: got()) }
        return setter
    }

    // Typed setters: one C call, the value passed as the C type. The caller owns `handle` alone.

    /// Sets a `q` (int64) property.
    public func set(int64 value: Int64, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        let setter = try settable(.int64, got: "int")
        unsafeBitCast(setter, to: TypedPropertyCall.Int64Setter.self)(handle, descriptor, value)
    }

    /// Sets a `d` (double) property.
    public func set(double value: Double, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        let setter = try settable(.double, got: "double")
        unsafeBitCast(setter, to: TypedPropertyCall.DoubleSetter.self)(handle, descriptor, value)
    }

    /// Sets a `B` (bool) property.
    public func set(bool value: Bool, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        let setter = try settable(.bool, got: "bool")
        unsafeBitCast(setter, to: TypedPropertyCall.BoolSetter.self)(handle, descriptor, value)
    }

    /// Sets a `{Color=dddd}` property (a dynamic colour crosses as its light appearance).
    public func set(color value: Color, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        let setter = try settable(.color, got: "color")
        unsafeBitCast(setter, to: TypedPropertyCall.ColorSetter.self)(handle, descriptor, cellhost_color(value))
    }

    /// Writes `value` into the configuration `handle` through the setter: one switch on the
    /// encoding, then the typed call for the common cases (no allocation); other values are
    /// converted as actions convert them (`FFIValueBuffer`, which also accepts an int for a
    /// double and names for colours and transformers) and passed to the typed setter.
    /// The caller owns `handle` alone.
    public func set(_ value: PropertyValue, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        guard let setter else { throw .invalidValue(property: name, reason: "the property is read-only") }
        // The encoding was checked by the switch: each case calls its setter type directly.
        switch encoding {
        case .int64:
            if case .int(let i) = value { return unsafeBitCast(setter, to: TypedPropertyCall.Int64Setter.self)(handle, descriptor, i) }
        case .double:
            if case .double(let d) = value { return unsafeBitCast(setter, to: TypedPropertyCall.DoubleSetter.self)(handle, descriptor, d) }
        case .bool:
            if case .bool(let b) = value { return unsafeBitCast(setter, to: TypedPropertyCall.BoolSetter.self)(handle, descriptor, b) }
        case .color:
            if case .color(let c) = value {
                return unsafeBitCast(setter, to: TypedPropertyCall.ColorSetter.self)(handle, descriptor, cellhost_color(c))
            }
        case .string:
            guard case .string(let s) = value else { break }
            if let problem = ValueBounds.textProblem(bytes: s.utf8.count) { throw .invalidValue(property: name, reason: problem) }
            s.withCString { unsafeBitCast(setter, to: TypedPropertyCall.StringSetter.self)(handle, descriptor, $0) }
            return
        case .size, .insets, .transformer:
            break
        }
        var argument = try FFIValueBuffer(nonString: value, as: encoding, name: name)
        withUnsafeBytes(of: &argument) {
            TypedPropertyCall.set(encoding, setter: setter, config: handle, descriptor: descriptor, slot: $0.baseAddress!)
        }
    }

    /// Writes `value` through libffi instead (the conversions are the same as `set(_:on:)`'s):
    /// what `validate` compares the typed path with.
    public func setThroughFFI(_ value: PropertyValue, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        let setter = try settable(encoding, got: value.kindName)
        let cif: UnsafeMutablePointer<ffi_cif>
        do { cif = try self.cif(setterCIF, .setter(encoding)) } catch {
            throw .invalidValue(property: name, reason: error.description)
        }
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        var argument = try FFIValueBuffer(value, as: encoding, name: name, strings: &strings)
        cffi_call_setter(cif, setter, UnsafeMutableRawPointer(handle), descriptor, &argument)
    }
}

/// An action a plugin type declares: `bool act(config, action, args…)`, called through libffi.
public final class PluginAction: @unchecked Sendable {
    public let name: String
    public let arguments: [ValueEncoding]
    /// Argument names for signatures; `arg1`, `arg2`… when the plugin gave none.
    public let argumentNames: [String]
    public let function: cellhost_fn
    public let descriptor: UnsafePointer<cellhost_action>
    private let cache: FFISignatureCache
    private let preparedCIF = Atomic<UnsafeMutablePointer<ffi_cif>?>(nil)

    init(name: String, arguments: [ValueEncoding], argumentNames: [String], function: cellhost_fn,
         descriptor: UnsafePointer<cellhost_action>, cache: FFISignatureCache) {
        self.name = name
        self.arguments = arguments
        self.argumentNames = argumentNames
        self.function = function
        self.descriptor = descriptor
        self.cache = cache
    }

    /// The action's cif, from the cache on the first call (as for properties).
    private func cif() throws(ConfigurationPropertyError) -> UnsafeMutablePointer<ffi_cif> {
        if let cif = preparedCIF.load(ordering: .acquiring) { return cif }
        do {
            let cif = try cache.cif(for: .action(arguments))
            preparedCIF.store(cif, ordering: .releasing)
            return cif
        } catch {
            throw .actionFailed(action: name, reason: error.description)
        }
    }

    /// `advance(by: double, animated: bool)`.
    public var signature: String {
        "\(name)(" + zip(argumentNames, arguments).map { "\($0): \($1.kindName)" }.joined(separator: ", ") + ")"
    }

    /// Runs the action on the configuration `handle`, which the caller owns alone.
    public func perform(on handle: OpaquePointer, arguments values: [PropertyValue]) throws(ConfigurationPropertyError) {
        guard values.count == arguments.count else {
            throw .actionFailed(action: name, reason: "takes \(arguments.count) argument(s) (\(signature)), got \(values.count)")
        }
        // Arguments are few and actions are not on the per-frame path: plain arrays will do.
        var buffers = [FFIValueBuffer](repeating: FFIValueBuffer(), count: values.count)
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        for (i, (value, encoding)) in zip(values, arguments).enumerated() {
            do {
                buffers[i] = try FFIValueBuffer(value, as: encoding, name: argumentNames[i], strings: &strings)
            } catch {
                throw .actionFailed(action: name, reason: error.description)
            }
        }
        let cif = try cif()
        var configArgument: OpaquePointer? = handle
        var descriptorArgument: UnsafePointer<cellhost_action>? = descriptor
        var result: UInt64 = 0
        withUnsafeMutablePointer(to: &configArgument) { c in
            withUnsafeMutablePointer(to: &descriptorArgument) { d in
                buffers.withUnsafeMutableBufferPointer { values in
                    var list: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(c), UnsafeMutableRawPointer(d)]
                    for i in values.indices { list.append(UnsafeMutableRawPointer(values.baseAddress! + i)) }
                    list.withUnsafeMutableBufferPointer { ffi_call(cif, function, &result, $0.baseAddress) }
                }
            }
        }
        guard result & 0xFF != 0 else {
            throw .actionFailed(action: name, reason: "the plugin refused the arguments (see its log)")
        }
    }
}

/// Storage big and aligned enough for any ABI value (the largest is four doubles), used as an
/// argument or return slot for `ffi_call`; libffi widens small returns to `ffi_arg`, which fits.
struct FFIValueBuffer {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}

    private mutating func store<T>(_ value: T) {
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: value, as: T.self) }
    }

    private func load<T>(_: T.Type) -> T {
        withUnsafeBytes(of: words) { $0.load(as: T.self) }
    }

    /// A slot holding `value` as `encoding` (conversions as in `withArgument`). Strings are copied
    /// into `strings`, which the caller frees after the call.
    init(_ value: PropertyValue, as encoding: ValueEncoding, name: String,
         strings: inout [UnsafeMutablePointer<CChar>]) throws(ConfigurationPropertyError) {
        if encoding == .string, case .string(let s) = value {
            if let problem = ValueBounds.textProblem(bytes: s.utf8.count) { throw .invalidValue(property: name, reason: problem) }
            let copy = strdup(s)!
            strings.append(copy)
            self.init()
            store(UnsafePointer(copy))
            return
        }
        try self.init(nonString: value, as: encoding, name: name)
    }

    /// Switches on the encoding and matches the value per case: a switch over the pair
    /// `(encoding, value)` copies the whole `PropertyValue` into a tuple on every property set.
    init(nonString value: PropertyValue, as encoding: ValueEncoding, name: String) throws(ConfigurationPropertyError) {
        self.init()
        switch encoding {
        case .bool:
            if case .bool(let b) = value { store(b); return }
        case .int64:
            if case .int(let i) = value { store(i); return }
        case .double:
            if case .double(let d) = value { store(d); return }
            if case .int(let i) = value { store(Double(i)); return }  // `3` in a stream is a fine double
        case .color:
            if case .color(let c) = value { store(cellhost_color(c)); return }
            if let text = value.colorOrTransformerName {
                guard let c = Color(parsing: text) else {
                    throw .invalidValue(property: name, reason: "'\(text)' is neither a system colour name nor #RRGGBB[AA]")
                }
                store(cellhost_color(c))
                return
            }
        case .size:
            if case .size(let size) = value { store(cellhost_size(size)); return }
        case .insets:
            if case .insets(let insets) = value { store(cellhost_insets(insets)); return }
        case .transformer:
            if case .none = value { store(UnsafeRawPointer?.none); return }
            if case .transformer(let t) = value { try storeTransformer(t, name: name); return }
            if let text = value.colorOrTransformerName {
                guard let t = ColorTransformer.builtIn[text] else {
                    throw .invalidValue(property: name, reason: "no built-in colour transformer named '\(text)' "
                                        + "(known: \(ColorTransformer.builtIn.keys.sorted().joined(separator: ", ")))")
                }
                try storeTransformer(t, name: name)
                return
            }
        case .string:
            break
        }
        throw .typeMismatch(property: name, expected: encoding.kindName, got: value.kindName)
    }

    private mutating func storeTransformer(_ t: ColorTransformer, name: String) throws(ConfigurationPropertyError) {
        guard let function = ColorTransformerBridge.shared.functionPointer(for: t) else {
            throw .invalidValue(property: name, reason: "libffi could not make a closure for transformer '\(t.name)'")
        }
        store(function)
    }

    /// The value a getter returned.
    func value(as encoding: ValueEncoding) -> PropertyValue {
        switch encoding {
        case .bool: .bool(load(UInt64.self) & 0xFF != 0)
        case .int64: .int(load(Int64.self))
        case .double: .double(load(Double.self))
        case .string: load(UnsafePointer<CChar>?.self).map { .string(String(cString: $0)) } ?? .none
        case .color: .color(load(cellhost_color.self).color)
        case .size: .size(load(cellhost_size.self).size)
        case .insets: .insets(load(cellhost_insets.self).insets)
        case .transformer: ColorTransformerBridge.shared.transformer(for: load(cellhost_color_transformer?.self))
            .map { .transformer($0) } ?? .none
        }
    }
}

extension PropertyValue {
    /// The text of a string or symbol value: how streams name colours and built-in transformers.
    fileprivate var colorOrTransformerName: String? {
        switch self {
        case .string(let text), .symbolic(let text): text
        default: nil
        }
    }
}
