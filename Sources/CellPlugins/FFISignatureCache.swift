import CFFI
import Synchronization

/// The shape of a call into a plugin, which determines its `ffi_cif`.
public enum CallSignature: Hashable, Sendable, CustomStringConvertible {
    /// `T get(const cellhost_config *, const cellhost_property *)`
    case getter(ValueEncoding)
    /// `void set(cellhost_config *, const cellhost_property *, T)`
    case setter(ValueEncoding)
    /// `bool act(cellhost_config *, const cellhost_action *, A1, A2, …)`
    case action([ValueEncoding])
    /// `cellhost_color transform(cellhost_color)`: host transformers handed to plugins.
    case colorTransformer
    /// `void log(int32_t, const char *)`: the per-plugin log function.
    case log

    /// The cache key: the encodings with the call shape.
    public var description: String {
        switch self {
        case .getter(let e): "get:\(e.rawValue)"
        case .setter(let e): "set:\(e.rawValue)"
        case .action(let args): "act:" + args.map(\.rawValue).joined()
        case .colorTransformer: "transformer"
        case .log: "log"
        }
    }

    var returnType: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .getter(let e): e.ffiType
        case .setter, .log: cffi_type_void()
        case .action: cffi_type_uint8()
        case .colorTransformer: ValueEncoding.color.ffiType
        }
    }

    var argumentTypes: [UnsafeMutablePointer<ffi_type>] {
        let handles: [UnsafeMutablePointer<ffi_type>] = [cffi_type_pointer(), cffi_type_pointer()]
        switch self {
        case .getter: return handles
        case .setter(let e): return handles + [e.ffiType]
        case .action(let args): return handles + args.map(\.ffiType)
        case .colorTransformer: return [ValueEncoding.color.ffiType]
        case .log: return [cffi_type_sint32()!, cffi_type_pointer()!]
        }
    }
}

public struct FFIPrepareError: Error, CustomStringConvertible {
    public var signature: CallSignature
    public var status: Int
    public var description: String { "libffi could not prepare a call of shape \(signature) (status \(status))" }
}

/// One `ffi_cif` per call signature, prepared on a member's first call (not at load) and kept for
/// the life of the process (loaded plugins hold pointers to them; the set of signatures is small
/// and bounded).
/// `ffi_prep_cif` on every call is the slow path; this makes it a one-time cost.
public final class FFISignatureCache: Sendable {
    public static let shared = FFISignatureCache()

    private struct Prepared: @unchecked Sendable { let cif: UnsafeMutablePointer<ffi_cif> }
    private let cifs = Mutex<[CallSignature: Prepared]>([:])

    public init() {}

    /// The prepared cif for `signature`, from the cache or prepared now.
    public func cif(for signature: CallSignature) throws(FFIPrepareError) -> UnsafeMutablePointer<ffi_cif> {
        let result: Result<UnsafeMutablePointer<ffi_cif>, FFIPrepareError> = cifs.withLock { cache in
            if let hit = cache[signature] { return .success(hit.cif) }
            switch FFISignatureCache.prepare(signature) {
            case .success(let cif):
                cache[signature] = Prepared(cif: cif)
                return .success(cif)
            case .failure(let error): return .failure(error)
            }
        }
        return try result.get()
    }

    /// The signatures prepared so far: loading a plugin prepares none, its first calls do.
    var preparedSignatures: Set<CallSignature> { cifs.withLock { Set($0.keys) } }

    /// Prepares a fresh cif: what the cache does once per signature (cellhost-bench times doing it per call).
    /// The cif and its argument array live until the process ends.
    public static func prepare(_ signature: CallSignature) -> Result<UnsafeMutablePointer<ffi_cif>, FFIPrepareError> {
        let args = signature.argumentTypes
        let argTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: max(1, args.count))
        for (i, t) in args.enumerated() { argTypes[i] = t }
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        cif.initialize(to: ffi_cif())
        let status = ffi_prep_cif(cif, cffi_default_abi(), UInt32(args.count), signature.returnType, argTypes)
        guard status == FFI_OK else {
            return .failure(FFIPrepareError(signature: signature, status: Int(status.rawValue)))
        }
        return .success(cif)
    }
}
