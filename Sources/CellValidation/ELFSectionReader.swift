import Glibc

/// Reads one named section of a 64-bit little-endian ELF file through `<elf.h>`'s `Elf64_Ehdr`
/// and `Elf64_Shdr`, without mapping or loading the file. The file is untrusted: every offset
/// and size it states is checked against the file's size before anything is read, arithmetic
/// cannot overflow, and only the header, the section table, the section name table and the
/// wanted section are read, each under `sectionSizeLimit`.
struct ELFSectionReader: ~Copyable {
    /// Why the file cannot be read as ELF; `text` completes "PATH: …".
    struct Problem: Error {
        var text: String
    }

    /// Larger section tables or sections are refused rather than read: no plugin comes near.
    static let sectionSizeLimit = 16 << 20

    private let descriptor: Int32
    private let fileSize: UInt64
    private let sections: [Elf64_Shdr]
    private let sectionNames: [UInt8]

    /// Opens `path` without following it into a FIFO or device (non-blocking, regular files only)
    /// and checks the ELF header and section table.
    init(path: String) throws(Problem) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            guard errno == ENOENT else { throw Problem(text: "cannot be read: \(String(cString: strerror(errno)))") }
            // As the loader says it: a bare name is a file in the current folder, never a search.
            guard !path.contains("/"), let folder = getcwd(nil, 0) else { throw Problem(text: "no such file") }
            defer { free(folder) }
            throw Problem(text: "no such file in the current folder, \(String(cString: folder))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Problem(text: "cannot be examined (\(reason))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Problem(text: status.st_mode & S_IFMT == S_IFDIR ? "is a directory, not a plugin library"
                                                                     : "is not a regular file")
        }
        let size = UInt64(max(0, status.st_size))
        let table: ([Elf64_Shdr], [UInt8])
        do {
            table = try Self.readSectionTable(fd: fd, fileSize: size)
        } catch {
            close(fd)
            throw error
        }
        descriptor = fd
        fileSize = size
        (sections, sectionNames) = table
    }

    deinit { close(descriptor) }

    /// The bytes of the first section called `name`; nil when the file has none.
    func section(named name: String) throws(Problem) -> [UInt8]? {
        let wanted = Array(name.utf8)
        for header in sections where nameMatches(header.sh_name, wanted) {
            guard header.sh_type != UInt32(SHT_NOBITS) else {
                throw Problem(text: "its \(name) section occupies no bytes in the file (SHT_NOBITS)")
            }
            return try Self.read(fd: descriptor, fileSize: fileSize, offset: header.sh_offset, count: header.sh_size,
                                 what: "its \(name) section")
        }
        return nil
    }

    /// Every section of `type` (`SHT_DYNSYM`, say) with its entry size, and the section its
    /// `sh_link` names (a symbol table's string table).
    func sections(ofType type: UInt32) throws(Problem) -> [(contents: [UInt8], entrySize: Int, linked: [UInt8])] {
        var found: [(contents: [UInt8], entrySize: Int, linked: [UInt8])] = []
        for header in sections where header.sh_type == type {
            guard Int(header.sh_link) < sections.count else {
                throw Problem(text: "links a section to section \(header.sh_link), which does not exist")
            }
            let linked = sections[Int(header.sh_link)]
            found.append((try Self.read(fd: descriptor, fileSize: fileSize, offset: header.sh_offset, count: header.sh_size,
                                        what: "a section of type \(type)"),
                          Int(min(header.sh_entsize, UInt64(Self.sectionSizeLimit))),
                          try Self.read(fd: descriptor, fileSize: fileSize, offset: linked.sh_offset, count: linked.sh_size,
                                        what: "the section linked to a section of type \(type)")))
        }
        return found
    }

    private func nameMatches(_ offset: UInt32, _ wanted: [UInt8]) -> Bool {
        let start = Int(offset)
        guard start < sectionNames.count, sectionNames.count - start > wanted.count else { return false }
        return sectionNames[start..<start + wanted.count].elementsEqual(wanted) && sectionNames[start + wanted.count] == 0
    }

    private static func readSectionTable(fd: Int32, fileSize: UInt64) throws(Problem) -> ([Elf64_Shdr], [UInt8]) {
        guard fileSize > 0 else { throw Problem(text: "is an empty file, not a plugin library") }
        let identifierSize = Int(EI_NIDENT)
        let identification = try read(fd: fd, fileSize: fileSize, offset: 0, count: min(fileSize, UInt64(identifierSize)),
                                      what: "its ELF identification")
        guard identification.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else {
            throw Problem(text: "is not an ELF file (wrong magic bytes)")
        }
        guard identification.count == identifierSize else {
            throw Problem(text: "is truncated: \(fileSize) bytes, shorter than an ELF identification (\(identifierSize) bytes)")
        }
        switch Int32(identification[Int(EI_CLASS)]) {
        case ELFCLASS64: break
        case ELFCLASS32: throw Problem(text: "is a 32-bit ELF file (ELFCLASS32); plugins are 64-bit")
        case let other: throw Problem(text: "has an unknown ELF class \(other)")
        }
        switch Int32(identification[Int(EI_DATA)]) {
        case ELFDATA2LSB: break
        case ELFDATA2MSB: throw Problem(text: "is a big-endian ELF file (ELFDATA2MSB); this host reads little-endian plugins")
        case let other: throw Problem(text: "has an unknown ELF byte order \(other)")
        }
        guard Int32(identification[Int(EI_VERSION)]) == EV_CURRENT else {
            throw Problem(text: "has an unknown ELF version \(identification[Int(EI_VERSION)])")
        }
        let header: Elf64_Ehdr = try record(fd: fd, fileSize: fileSize, offset: 0, what: "its ELF header")
        guard header.e_shoff != 0 else { throw Problem(text: "has no section table (e_shoff is 0)") }
        guard Int(header.e_shentsize) == MemoryLayout<Elf64_Shdr>.size else {
            throw Problem(text: "states a section header size of \(header.e_shentsize) bytes, not \(MemoryLayout<Elf64_Shdr>.size)")
        }
        // Extended numbering (gABI): counts that do not fit the ELF header live in section 0.
        let first: Elf64_Shdr = try record(fd: fd, fileSize: fileSize, offset: header.e_shoff, what: "its section table")
        let count = header.e_shnum == 0 ? first.sh_size : UInt64(header.e_shnum)
        let namesIndex = header.e_shstrndx == UInt16(SHN_XINDEX) ? UInt64(first.sh_link) : UInt64(header.e_shstrndx)
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(MemoryLayout<Elf64_Shdr>.size))
        guard !overflow else { throw Problem(text: "states an impossible section count \(count)") }
        let table = try read(fd: fd, fileSize: fileSize, offset: header.e_shoff, count: tableSize, what: "its section table")
        let sections = (0..<Int(count)).map { index in
            table.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * MemoryLayout<Elf64_Shdr>.size, as: Elf64_Shdr.self) }
        }
        guard namesIndex != UInt64(SHN_UNDEF), namesIndex < count else {
            throw Problem(text: "names no valid section name table (e_shstrndx \(namesIndex) of \(count) sections)")
        }
        let namesHeader = sections[Int(namesIndex)]
        let names = try read(fd: fd, fileSize: fileSize, offset: namesHeader.sh_offset, count: namesHeader.sh_size,
                             what: "its section name table")
        return (sections, names)
    }

    /// One fixed-size `<elf.h>` record at `offset`.
    private static func record<Record>(fd: Int32, fileSize: UInt64, offset: UInt64, what: String) throws(Problem) -> Record {
        let bytes = try read(fd: fd, fileSize: fileSize, offset: offset, count: UInt64(MemoryLayout<Record>.size), what: what)
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: Record.self) }
    }

    /// `count` bytes at `offset`, after checking that they lie inside the file and under the limit.
    private static func read(fd: Int32, fileSize: UInt64, offset: UInt64, count: UInt64, what: String) throws(Problem) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= fileSize else {
            throw Problem(text: "is truncated or corrupt: \(what) (bytes \(offset)…\(overflow ? "∞" : String(end))) "
                          + "lies past the end of the file (\(fileSize) bytes)")
        }
        guard count <= UInt64(sectionSizeLimit) else {
            throw Problem(text: "\(what) is \(count) bytes, more than the \(sectionSizeLimit >> 20) MiB a plugin's could be")
        }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Problem(text: "could not be read (\(what): \(got < 0 ? String(cString: strerror(errno)) : "unexpected end of file"))") }
            done += got
        }
        return bytes
    }
}
