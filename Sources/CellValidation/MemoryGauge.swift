import Glibc

/// What the lifecycle-memory check measures. Normally the resident set size; under a sanitizer
/// allocator (AddressSanitizer) freed blocks sit in a quarantine that keeps resident memory
/// growing for hundreds of MiB, so there the check asks the allocator for its live bytes.
struct MemoryGauge: Sendable {
    /// What `bytes()` counts, for the check's message.
    let quantity: String
    let bytes: @Sendable () -> Int

    static let current: MemoryGauge = {
        typealias AllocatedBytes = @convention(c) () -> Int
        if let symbol = dlsym(nil, "__sanitizer_get_current_allocated_bytes") {
            let allocated = unsafeBitCast(symbol, to: AllocatedBytes.self)
            return MemoryGauge(quantity: "live heap", bytes: { allocated() })
        }
        return MemoryGauge(quantity: "resident memory", bytes: residentBytes)
    }()

    /// Resident set size from /proc/self/statm.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        let fields = String(decoding: buffer.prefix(max(0, n)), as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
