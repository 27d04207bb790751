import Foundation
import Testing
import CellIO

/// A trace written through `AtomicFile` replaces the file at its path only when committed; until
/// then what was flushed sits in its hidden partial file, and a file never committed leaves
/// nothing behind.
@Suite struct AtomicFileTests {
    private func folder() throws -> String { try #require(makeTemporaryDirectory(prefix: "cellio-atomic-file")) }

    private func text(_ path: String) -> String? { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }

    private func entries(_ dir: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

    @Test func flushedRecordsWaitInThePartialFileUntilCommitted() throws {
        let dir = try folder()
        let path = dir + "/trace.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("earlier run\n".utf8)))
        let file = try AtomicFile(path: path)
        file.write("{\"record\":\"header\"}\n")
        file.write("{\"record\":\"event\"}\n")
        file.flush()
        file.write("{\"record\":\"end\"}\n")
        #expect(text(path) == "earlier run\n", "the earlier file stays until the commit")
        #expect(text(FileReplacer.partialName(for: path)) == "{\"record\":\"header\"}\n{\"record\":\"event\"}\n",
                "flushed records, ending at a record boundary")
        try file.commit()
        #expect(text(path) == "{\"record\":\"header\"}\n{\"record\":\"event\"}\n{\"record\":\"end\"}\n")
        #expect(try entries(dir) == ["trace.jsonl"], "nothing hidden is left, not even the replaced file")
    }

    @Test func aFileNeverCommittedLeavesNothingBehind() throws {
        let dir = try folder()
        let path = dir + "/trace.chrome.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("[]".utf8)))
        do {
            let file = try AtomicFile(path: path)
            file.write("[{\"name\":\"event\"}")
            file.flush()
        }
        #expect(text(path) == "[]")
        #expect(try entries(dir) == ["trace.chrome.json"])
    }

    @Test func aFolderInTheWayIsAnError() throws {
        let dir = try folder()
        let path = dir + "/trace.jsonl"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let file = try AtomicFile(path: path)
        file.write("{}\n")
        #expect(throws: SinkError.self) { try file.commit() }
        #expect(try entries(dir) == ["trace.jsonl"])
    }
}
