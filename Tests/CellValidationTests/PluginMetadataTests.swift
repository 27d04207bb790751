import CCellHostABI
import CellIO
import CellTestSupport
@testable import CellValidation
import Glibc
import Testing

/// The metadata section reader: it reads what the SDK's macros write in the built samples, and
/// on any other file — truncated, corrupted, 32-bit, big-endian, not ELF, not a file — it
/// returns an error naming the file and what is wrong, never crashes and never reads outside it.
@Suite struct PluginMetadataTests {
    static let directory = BuiltProducts.temporaryDirectory(prefix: "cellhost-metadata-test")

    static func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = "\(directory)/\(name)"
        let file = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        return path
    }

    static func bytes(of path: String) throws -> [UInt8] {
        try #require(readFileBytes(path, limit: 256 << 20), "cannot read \(path)")
    }

    func readError(_ path: String) -> PluginMetadata.ReadError? {
        do {
            _ = try PluginMetadata.read(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func theCSampleDeclaresWhatItsDescriptorSays() throws {
        let metadata = try PluginMetadata.read(path: BuiltProducts.samplePlugin("ProgressMeter"))
        #expect(metadata == PluginMetadata(
            formatVersion: 1, id: "com.cellhost.samples.meters", name: "Progress meters", version: "1.0.0",
            vendor: "cellhost samples",
            description: "A progress bar or ring with a title, written in C against plugin.h alone.",
            abi: "1.2", typeIdentifiers: ["com.cellhost.samples.progress"]))
    }

    @Test func theSwiftSampleCarriesItsSectionThroughSwiftPM() throws {
        let metadata = try PluginMetadata.read(path: BuiltProducts.samplePlugin("BadgeCell"))
        #expect(metadata.id == "com.cellhost.samples.badges")
        #expect(metadata.typeIdentifiers == ["com.cellhost.samples.badge"])
        #expect(metadata.abi == "1.2")
    }

    @Test func aPluginWithoutTheSectionIsNamedAsSuch() throws {
        let path = try PluginCompiler.compile(source: "#include \"cellhost/plugin.h\"\nCELLHOST_EXPORT int f(void) { return 1; }\n",
                                              name: "nosection")
        let error = try #require(readError(path))
        #expect(error.kind == .noSection)
        #expect(error.description.hasPrefix("\(path): has no .cellhost_metadata section"))
    }

    @Test func macrosEscapeNothingButJoinEveryTypeAndTheABI() throws {
        let path = try PluginCompiler.compile(source: """
            #include "cellhost/plugin.h"
            CELLHOST_METADATA("com.t", "T", "2.0", "V", "", CELLHOST_METADATA_TYPES("a", "b", "c", "d", "e", "f", "g", "h",
                              "i", "j", "k", "l", "m", "n", "o", "p"));
            CELLHOST_EXPORT int f(void) { return 1; }
            """, name: "sixteen", extraFlags: "-std=c99 -pedantic")
        let metadata = try PluginMetadata.read(path: path)
        #expect(metadata.typeIdentifiers == "abcdefghijklmnop".map(String.init))
        #expect(metadata.description == nil)
        #expect(metadata.abi == "\(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)")
    }

    @Test(arguments: [
        (4, UInt8(1), "is a 32-bit ELF file (ELFCLASS32)"),
        (4, UInt8(9), "has an unknown ELF class 9"),
        (5, UInt8(2), "is a big-endian ELF file (ELFDATA2MSB)"),
        (6, UInt8(0), "has an unknown ELF version 0"),
        (0, UInt8(0x7E), "is not an ELF file (wrong magic bytes)"),
    ])
    func identificationProblemsAreNamed(offset: Int, value: UInt8, problem: String) throws {
        var bytes = try Self.bytes(of: BuiltProducts.samplePlugin("ProgressMeter"))
        bytes[offset] = value
        let path = Self.write(bytes, "ident-\(offset)-\(value).so")
        let error = try #require(readError(path))
        #expect(error.description == "\(path): \(problem)" || error.description.hasPrefix("\(path): \(problem)"))
        #expect(error.kind == .unreadableFile)
    }

    @Test func truncatedCopiesAreRefusedWithTheBytesThatAreMissing() throws {
        let bytes = try Self.bytes(of: BuiltProducts.samplePlugin("ProgressMeter"))
        let empty = Self.write([], "empty.so")
        #expect(readError(empty)?.description == "\(empty): is an empty file, not a plugin library")
        for length in [10, 63, 64, 4096, bytes.count / 2, bytes.count - 1] {
            let path = Self.write(Array(bytes.prefix(length)), "truncated-\(length).so")
            let error = try #require(readError(path), "a copy cut at \(length) bytes was read")
            #expect(error.description.hasPrefix("\(path): "))
            #expect(error.description.contains("truncated"), "\(error.description)")
        }
    }

    @Test func offsetsPastTheFileAreRefused() throws {
        var bytes = try Self.bytes(of: BuiltProducts.samplePlugin("ProgressMeter"))
        // e_shoff (offset 0x28) far beyond the file, then so large that offset + size overflows.
        for (value, name) in [(UInt64(1) << 40, "far"), (UInt64.max - 10, "overflow")] {
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(0x28..<0x30, with: $0) }
            let path = Self.write(bytes, "shoff-\(name).so")
            let error = try #require(readError(path))
            #expect(error.description.contains("lies past the end of the file"), "\(error.description)")
        }
    }

    @Test func directoriesAndFIFOsAreRefusedWithoutBlocking() throws {
        #expect(readError(Self.directory)?.description == "\(Self.directory): is a directory, not a plugin library")
        let fifo = "\(Self.directory)/fifo.so"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(readError(fifo)?.description == "\(fifo): is not a regular file")
        #expect(readError("\(Self.directory)/missing.so")?.description == "\(Self.directory)/missing.so: no such file")
    }

    /// Byte mutations aimed at what the reader interprets — the ELF header, the section table,
    /// the name table and the record — each give a result or an error naming the file; a crash
    /// would end the test process.
    @Test func mutatedCopiesNeverCrashTheReader() throws {
        let path = BuiltProducts.samplePlugin("ProgressMeter")
        let original = try Self.bytes(of: path)
        let shoff = original.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 0x28, as: UInt64.self)) }
        let record = try #require(Self.range(of: Array("{\"cellhost-metadata\"".utf8), in: original))
        let targets: [Range<Int>] = [0..<64, shoff..<original.count, record.lowerBound..<record.lowerBound + 200]
        var generator = SeededGenerator(seed: 26_08)
        var results = 0, errors = 0
        for round in 0..<400 {
            var bytes = original
            let target = targets[round % targets.count]
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: target, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let mutated = Self.write(bytes, "mutated.so")
            do {
                _ = try PluginMetadata.read(path: mutated)
                results += 1
            } catch {
                #expect(error.description.hasPrefix("\(mutated): "), "round \(round): \(error.description)")
                errors += 1
            }
        }
        #expect(results + errors == 400)
        #expect(errors > 100, "the mutations must reach the checks: \(errors) errors")
        #expect(results > 10, "mutations outside what is read must leave a readable record: \(results) results")
    }

    @Test func recordsAreSelfDelimitingAndVersioned() throws {
        func parse(_ text: String, padding: [UInt8] = [0, 0, 0]) -> Result<PluginMetadata, PluginMetadata.RecordProblem> {
            Result { () throws(PluginMetadata.RecordProblem) in try PluginMetadata.parse(section: Array(text.utf8) + padding) }
        }
        let fields = "\"id\":\"a\",\"name\":\"n\",\"version\":\"1\",\"vendor\":\"v\",\"description\":\"d\",\"abi\":\"1.2\",\"types\":[\"t\"]"
        let newer = try parse("{\"cellhost-metadata\":2,\(fields),\"icons\":[]}").get()
        #expect(newer.formatVersion == 2 && newer.id == "a" && newer.description == "d")
        func problem(_ result: Result<PluginMetadata, PluginMetadata.RecordProblem>) -> String? {
            if case .failure(let problem) = result { problem.text } else { nil }
        }
        #expect(problem(parse("{\"cellhost-metadata\":1,\(fields)}", padding: [])) == "is not NUL-terminated (truncated?)")
        #expect(problem(parse("{\"cellhost-metadata\":1,\(fields)}\0{\"cellhost-metadata\":1}")) ==
                "holds more than one record (was CELLHOST_METADATA written twice?)")
        #expect(problem(parse("{\"cellhost-metadata\":3,\"name\":\"n\"}")) ==
                "has no string \"id\" (format version 3 is newer than this host reads, 1)")
        #expect(problem(parse("{\"id\":\"a\"}"))?.hasPrefix("does not start with") == true)
        #expect(problem(parse("{\"cellhost-metadata\":1,\(fields)")) != nil)
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }
}
