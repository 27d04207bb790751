import CCellHostABI
import CFFI
import CellKit
import Synchronization

/// Colour transformers across the ABI. A host transformer (built-in or composed) reaches a
/// plugin as a plain C function pointer `cellhost_color (*)(cellhost_color)`; since a C function
/// pointer carries no context, each one is a libffi closure bound to its `ColorTransformer`.
/// Closures are made once per transformer name and kept until the process ends: a plugin may
/// hold the pointer in any configuration for as long as it likes.
/// A function pointer coming back from a plugin maps to the host transformer it came from, or,
/// for the plugin's own function, to a transformer that calls it.
public final class ColorTransformerBridge: Sendable {
    public static let shared = ColorTransformerBridge()

    private struct Tables {
        var byName: [String: TransformerClosure] = [:]
        var byAddress: [UInt: TransformerClosure] = [:]
        var foreign: [UInt: ColorTransformer] = [:]
    }
    private let tables = Mutex(Tables())

    /// The C function pointer that applies `transformer`, made on first use.
    /// Returns nil only if libffi cannot make closures on this system.
    public func functionPointer(for transformer: ColorTransformer) -> cellhost_color_transformer? {
        if let known = tables.withLock({ $0.byName[transformer.name]?.code }) { return known }
        // A plugin's own function that came back in: hand out the same pointer.
        if let address = tables.withLock({ t in t.foreign.first { $0.value.name == transformer.name }?.key }) {
            return unsafeBitCast(address, to: cellhost_color_transformer.self)
        }
        guard let cif = try? FFISignatureCache.shared.cif(for: .colorTransformer) else { return nil }
        let entry = TransformerClosure(transformer)
        var code: UnsafeMutableRawPointer?
        guard let closure = ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &code)?
            .assumingMemoryBound(to: ffi_closure.self), let code
        else { return nil }
        let userData = Unmanaged.passRetained(entry).toOpaque()  // released never: the closure lives forever
        guard ffi_prep_closure_loc(closure, cif, colorTransformerTrampoline, userData, code) == FFI_OK else {
            Unmanaged<TransformerClosure>.fromOpaque(userData).release()
            ffi_closure_free(closure)
            return nil
        }
        let function = unsafeBitCast(code, to: cellhost_color_transformer.self)
        entry.code = function
        return tables.withLock { t in
            if let raced = t.byName[transformer.name]?.code { return raced }  // keep the first one made
            t.byName[transformer.name] = entry
            t.byAddress[UInt(bitPattern: code)] = entry
            return function
        }
    }

    /// The host transformer a function pointer stands for (nil pointer = no transformer).
    public func transformer(for function: cellhost_color_transformer?) -> ColorTransformer? {
        guard let function else { return nil }
        let address = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
        return tables.withLock { t in
            if let entry = t.byAddress[address] { return entry.transformer }
            if let known = t.foreign[address] { return known }
            let name = "plugin-function@0x" + String(address, radix: 16)
            let wrapped = ColorTransformer(name: name) { color in function(cellhost_color(color)).color }
            t.foreign[address] = wrapped
            return wrapped
        }
    }
}

/// One live closure: the code pointer plugins call, and the transformer it applies.
private final class TransformerClosure: @unchecked Sendable {
    let transformer: ColorTransformer
    var code: cellhost_color_transformer?
    init(_ transformer: ColorTransformer) { self.transformer = transformer }
    func apply(_ color: cellhost_color) -> cellhost_color { cellhost_color(transformer(color.color)) }
}

/// The closure body every host transformer shares: applies the bound `ColorTransformer`.
private let colorTransformerTrampoline:
    @convention(c) (UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?,
                    UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutableRawPointer?) -> Void =
{ _, result, arguments, userData in
    guard let result, let arguments, let input = arguments[0], let userData else { return }
    let entry = Unmanaged<TransformerClosure>.fromOpaque(userData).takeUnretainedValue()
    let output = entry.apply(input.load(as: cellhost_color.self))
    result.storeBytes(of: output, as: cellhost_color.self)
}
