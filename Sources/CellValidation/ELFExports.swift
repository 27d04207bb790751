import CellIO
import Glibc

/// The names a shared library exports (defined global or weak symbols of its dynamic symbol
/// table), read from the file without loading it. Only 64-bit little-endian ELF is read; for
/// anything else the list is nil.
enum ELFExports {
    static func names(inFileAt path: String) -> [String]? {
        guard let bytes = readFileBytes(path, limit: 512 << 20), bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46],
              bytes[4] == 2, bytes[5] == 1 else { return nil }
        func u16(_ o: Int) -> Int { o + 2 <= bytes.count ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : 0 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func u64(_ o: Int) -> Int { o + 8 <= bytes.count ? u32(o) | u32(o + 4) << 32 : 0 }
        let sectionOffset = u64(0x28), sectionSize = u16(0x3A), sectionCount = u16(0x3C)
        guard sectionSize >= 64, sectionOffset + sectionSize * sectionCount <= bytes.count else { return nil }
        var result: [String] = []
        for i in 0..<sectionCount {
            let header = sectionOffset + i * sectionSize
            guard u32(header + 4) == 11 else { continue }  // SHT_DYNSYM
            let offset = u64(header + 0x18), size = u64(header + 0x20), entrySize = max(24, u64(header + 0x38))
            let linked = sectionOffset + u32(header + 0x28) * sectionSize
            let strings = u64(linked + 0x18), stringsSize = u64(linked + 0x20)
            guard offset + size <= bytes.count, strings + stringsSize <= bytes.count else { return nil }
            for entry in stride(from: offset + entrySize, to: offset + size, by: entrySize) {
                let info = Int(bytes[entry + 4]), sectionIndex = u16(entry + 6)
                let binding = info >> 4
                guard sectionIndex != 0, binding == 1 || binding == 2 else { continue }
                var end = strings + u32(entry)
                let start = end
                while end < strings + stringsSize && bytes[end] != 0 { end += 1 }
                if end > start { result.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
            }
        }
        return result
    }

    /// Exports a plugin may have besides the entry without anyone minding: the toolchain's own
    /// and the Swift runtime's metadata.
    static func isIncidental(_ name: String) -> Bool {
        let prefixes = ["$s", "_$s", "swift", "_swift", "__", "_init", "_fini", "_edata", "_end", "__bss_start"]
        return prefixes.contains { name.hasPrefix($0) }
    }

}
