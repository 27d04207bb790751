import Glibc

/// The names a shared library exports (defined global or weak symbols of its dynamic symbol
/// table), read from the file without loading it, through `ELFSectionReader`. Only 64-bit
/// little-endian ELF is read; for anything else the list is nil.
enum ELFExports {
    static func names(inFileAt path: String) -> [String]? {
        guard let file = try? ELFSectionReader(path: path),
              let tables = try? file.sections(ofType: UInt32(SHT_DYNSYM)) else { return nil }
        var result: [String] = []
        for (symbols, declaredEntrySize, strings) in tables {
            let entrySize = max(MemoryLayout<Elf64_Sym>.size, declaredEntrySize)
            // Entry 0 is the undefined symbol.
            for entry in stride(from: entrySize, to: symbols.count - MemoryLayout<Elf64_Sym>.size + 1, by: entrySize) {
                let symbol = symbols.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: entry, as: Elf64_Sym.self) }
                let binding = Int32(symbol.st_info >> 4)
                guard symbol.st_shndx != UInt16(SHN_UNDEF), binding == STB_GLOBAL || binding == STB_WEAK else { continue }
                let start = Int(symbol.st_name)
                guard start < strings.count else { continue }
                let end = strings[start...].firstIndex(of: 0) ?? strings.count
                if end > start { result.append(String(decoding: strings[start..<end], as: UTF8.self)) }
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
