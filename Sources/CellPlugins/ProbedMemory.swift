import CCellHostABI
import Glibc

/// Reads a plugin's descriptor memory without trusting its pointers, for one load.
///
/// `cellhost_probe_read` copies through a system call, which fails instead of faulting on
/// unmapped memory but costs far more than a copy; a descriptor, its arrays and its strings sit
/// on a few pages of the plugin image, and the loader reads them many times. So the pages a
/// probe succeeded on are remembered and later reads inside them are plain copies. Nothing unmaps
/// the image while it is being validated (no plugin code runs between the entry and `init`).
final class ProbedMemory {
    private static let pageSize = UInt(max(4096, sysconf(Int32(_SC_PAGESIZE))))
    /// Page numbers known readable; few, so a linear search is the fast lookup.
    private var readablePages: [UInt] = []
    private static let maximumRememberedPages = 64

    init() {}

    /// Copies `count` bytes at `address` into `out`; false when any of them is unreadable.
    func read(_ address: UnsafeRawPointer?, into out: UnsafeMutableRawPointer, count: Int) -> Bool {
        guard let address else { return false }
        guard count > 0 else { return true }
        let start = UInt(bitPattern: address)
        let (last, overflow) = start.addingReportingOverflow(UInt(count - 1))
        guard !overflow else { return false }
        let first = start / Self.pageSize, lastPage = last / Self.pageSize
        if readablePages.contains(first) && (lastPage == first || readablePages.contains(lastPage))
            && lastPage - first <= 1 {
            out.copyMemory(from: address, byteCount: count)
            return true
        }
        guard cellhost_probe_read(address, out, count) == 0 else { return false }
        for page in first...lastPage where readablePages.count < Self.maximumRememberedPages && !readablePages.contains(page) {
            readablePages.append(page)
        }
        return true
    }

    /// Reads a `T` at `address`.
    func read<T>(_ address: UnsafeRawPointer?, into value: inout T) -> Bool {
        withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: $0.count) }
    }
}
