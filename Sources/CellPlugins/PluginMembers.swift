import CCellHostABI
import Glibc
import CFFI
import CellKit

/// A property a plugin type declares: its name, type encoding, and the getter/setter called
/// through libffi with cifs prepared once at load.
public final class PluginProperty: @unchecked Sendable {
    public let name: String
    public let encoding: ValueEncoding
    /// The plugin's C functions and its descriptor (passed back as the second argument).
    public let getter: cellhost_fn
    public let setter: cellhost_fn?
    public let descriptor: UnsafePointer<cellhost_property>
    let getterCIF: UnsafeMutablePointer<ffi_cif>
    let setterCIF: UnsafeMutablePointer<ffi_cif>?

    init(name: String, encoding: ValueEncoding, getter: cellhost_fn, setter: cellhost_fn?,
         descriptor: UnsafePointer<cellhost_property>, cache: FFISignatureCache) throws(FFIPrepareError) {
        self.name = name
        self.encoding = encoding
        self.getter = getter
        self.setter = setter
        self.descriptor = descriptor
        getterCIF = try cache.cif(for: .getter(encoding))
        setterCIF = setter == nil ? nil : try cache.cif(for: .setter(encoding))
    }

    public var isReadOnly: Bool { setter == nil }

    /// Reads the property of the configuration `handle` through its getter.
    public func value(of handle: OpaquePointer) -> PropertyValue {
        var result = FFIValueBuffer()
        var configArgument: OpaquePointer? = handle
        var descriptorArgument: UnsafePointer<cellhost_property>? = descriptor
        withUnsafeMutablePointer(to: &configArgument) { c in
            withUnsafeMutablePointer(to: &descriptorArgument) { d in
                var arguments: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) = (UnsafeMutableRawPointer(c),
                                                                                      UnsafeMutableRawPointer(d))
                withUnsafeMutablePointer(to: &arguments) { a in
                    a.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 2) { list in
                        withUnsafeMutableBytes(of: &result) { ffi_call(getterCIF, getter, $0.baseAddress, list) }
                    }
                }
            }
        }
        return result.value(as: encoding)
    }

    /// Writes `value` into the configuration `handle` through the setter (one `ffi_call` with the
    /// cached cif, no allocation for non-string values). The caller owns `handle` alone.
    public func set(_ value: PropertyValue, on handle: OpaquePointer) throws(ConfigurationPropertyError) {
        guard let setter, let setterCIF else {
            throw .invalidValue(property: name, reason: "the property is read-only")
        }
        try FFIValueBuffer.withArgument(value, as: encoding, name: name) { valuePointer in
            var configArgument: OpaquePointer? = handle
            var descriptorArgument: UnsafePointer<cellhost_property>? = descriptor
            withUnsafeMutablePointer(to: &configArgument) { c in
                withUnsafeMutablePointer(to: &descriptorArgument) { d in
                    var arguments: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) =
                        (UnsafeMutableRawPointer(c), UnsafeMutableRawPointer(d), valuePointer)
                    withUnsafeMutablePointer(to: &arguments) { a in
                        a.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 3) { list in
                            var ignored: UInt64 = 0
                            ffi_call(setterCIF, setter, &ignored, list)
                        }
                    }
                }
            }
        }
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
    let cif: UnsafeMutablePointer<ffi_cif>

    init(name: String, arguments: [ValueEncoding], argumentNames: [String], function: cellhost_fn,
         descriptor: UnsafePointer<cellhost_action>, cache: FFISignatureCache) throws(FFIPrepareError) {
        self.name = name
        self.arguments = arguments
        self.argumentNames = argumentNames
        self.function = function
        self.descriptor = descriptor
        cif = try cache.cif(for: .action(arguments))
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
    private init(nonString value: PropertyValue, as encoding: ValueEncoding, name: String) throws(ConfigurationPropertyError) {
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

    /// Runs `body` with a pointer to `value` laid out as `encoding`; a string is passed as a
    /// NUL-terminated pointer valid during the call.
    static func withArgument(_ value: PropertyValue, as encoding: ValueEncoding, name: String,
                             _ body: (UnsafeMutableRawPointer) -> Void) throws(ConfigurationPropertyError) {
        if encoding == .string {
            guard case .string(let s) = value else {
                throw .typeMismatch(property: name, expected: encoding.kindName, got: value.kindName)
            }
            s.withCString { c in
                var pointer: UnsafePointer<CChar>? = c
                withUnsafeMutablePointer(to: &pointer) { body(UnsafeMutableRawPointer($0)) }
            }
            return
        }
        var buffer = try FFIValueBuffer(nonString: value, as: encoding, name: name)
        withUnsafeMutablePointer(to: &buffer) { body(UnsafeMutableRawPointer($0)) }
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
