import Foundation
import Glibc
import Testing
import CellIO

/// A trace written through `InPlaceFile` replaces the earlier file at once and grows under its
/// own name, only ever by whole records: what the owner batched goes to disk when a batch is
/// full or at a flush, never half a record.
@Suite struct InPlaceFileTests {
    private func folder() throws -> String { try #require(makeTemporaryDirectory(prefix: "cellio-in-place-file")) }

    private func text(_ path: String) -> String? { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }

    private func record(_ file: InPlaceFile, _ text: StaticString) {
        file.out.raw(text)
        file.recordEnded()
    }

    @Test func theEarlierFileGoesAtOnceAndRecordsAppearWhenFlushed() throws {
        let dir = try folder()
        let path = dir + "/trace.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("earlier run\n".utf8)))
        let file = try InPlaceFile(path: path)
        #expect(text(path) == "", "the earlier run's trace is gone before anything new is written")
        record(file, "{\"record\":\"header\"}\n")
        record(file, "{\"record\":\"event\"}\n")
        #expect(text(path) == "", "records wait in the batch until it is full or flushed")
        file.flush()
        #expect(text(path) == "{\"record\":\"header\"}\n{\"record\":\"event\"}\n")
        record(file, "{\"record\":\"end\"}\n")
        try file.close()
        #expect(text(path) == "{\"record\":\"header\"}\n{\"record\":\"event\"}\n{\"record\":\"end\"}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["trace.jsonl"], "nothing hidden beside it")
    }

    @Test func aFullBatchGoesToDiskInWholeRecords() throws {
        let path = try folder() + "/trace.jsonl"
        let file = try InPlaceFile(path: path)
        let line: StaticString = "{\"record\":\"event\",\"padding\":\"..........................................\"}\n"
        var batched = 0
        while batched + line.utf8CodeUnitCount < InPlaceFile.batchBytes {
            record(file, line)
            batched += line.utf8CodeUnitCount
        }
        #expect(text(path) == "", "a batch not yet full waits")
        record(file, line)
        let written = try #require(text(path))
        #expect(written.utf8.count == batched + line.utf8CodeUnitCount, "the full batch went to disk, up to its last record")
        try file.close()
    }

    @Test func aFileHardLinkedElsewhereKeepsItsBytesThere() throws {
        let dir = try folder()
        let path = dir + "/trace.jsonl", other = dir + "/kept.jsonl"
        #expect(FileManager.default.createFile(atPath: other, contents: Data("kept\n".utf8)))
        #expect(link(other, path) == 0)
        let file = try InPlaceFile(path: path)
        record(file, "{}\n")
        try file.close()
        #expect(text(other) == "kept\n")
        #expect(text(path) == "{}\n")
    }

    @Test func aFolderInTheWayIsAnErrorNamingThePath() throws {
        let path = try folder() + "/trace.jsonl"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect { _ = try InPlaceFile(path: path) } throws: { error in
            (error as? SinkError)?.description.hasPrefix(path + ": cannot create") == true
        }
    }
}
