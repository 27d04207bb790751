import Foundation
import Testing
@testable import CellIO

/// Files replaced through `FileReplacer` hold exactly their new bytes once in place; the file each
/// replaces is written over as the next one's partial file only when nothing else can see it, and
/// nothing hidden is left once the spare is discarded.
@Suite struct FileReplacerTests {
    private func folder(_ name: String) throws -> String {
        try #require(makeTemporaryDirectory(prefix: "cellio-file-replacer-" + name))
    }

    private func bytes(_ count: Int, _ seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) &+ seed } }

    private func write(_ data: [UInt8], to path: String, with replacer: FileReplacer) throws {
        try data.withUnsafeBufferPointer { buffer in
            // Two pieces, so the write is gathered as the encoder's is.
            let half = buffer.count / 2
            var pieces = [iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: half),
                          iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + half), iov_len: buffer.count - half)]
            try replacer.write(&pieces, to: path)
        }
    }

    private func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

    /// Whether the file at `path` holds exactly `data` (a Bool, so a failure does not print kilobytes).
    private func holds(_ path: String, _ data: [UInt8]) -> Bool { contents(path) == data }

    private func inode(_ path: String) -> UInt64 {
        var status = stat()
        return lstat(path, &status) == 0 ? UInt64(status.st_ino) : 0
    }

    private func hidden(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.sorted()
    }

    @Test func eachReplacedFileIsWrittenOverAsTheNext() throws {
        let dir = try folder("reuse")
        let paths = (1...4).map { dir + "/frame-\($0).png" }
        // An earlier run's files, longer than the new ones (the kept file must be cut to length).
        let earlier = paths.indices.map { bytes(9_000 + $0 * 100, 1) }
        for (path, data) in zip(paths, earlier) { #expect(FileManager.default.createFile(atPath: path, contents: Data(data))) }
        let earlierInodes = paths.map(inode)
        let replacer = FileReplacer()
        var written: [[UInt8]] = []
        for (i, path) in paths.enumerated() {
            let data = bytes(i % 2 == 0 ? 3_000 : 12_000, UInt8(10 + i))
            try write(data, to: path, with: replacer)
            written.append(data)
            #expect(holds(path, data), "\(path) holds exactly its new bytes")
            let kept = try hidden(dir)
            #expect(kept == [".frame-\(i + 1).png.partial-\(getpid())"], "the file it replaced is kept, hidden")
            #expect(holds(dir + "/" + (kept.first ?? ""), earlier[i]), "with the earlier bytes, not freed")
        }
        #expect(paths.dropFirst().map(inode) == earlierInodes.dropLast(), "each file after the first went into the one the previous replaced")
        replacer.discardSpare()
        #expect(try hidden(dir).isEmpty)
        #expect(zip(paths, written).allSatisfy(holds))
    }

    @Test func aFileLinkedElsewhereKeepsItsBytesThere() throws {
        let dir = try folder("linked")
        let first = dir + "/frame-1.png", second = dir + "/frame-2.png", golden = dir + "/golden.png"
        let old = bytes(5_000, 3)
        #expect(FileManager.default.createFile(atPath: first, contents: Data(old)))
        #expect(FileManager.default.createFile(atPath: second, contents: Data(bytes(5_000, 4))))
        #expect(link(first, golden) == 0)
        let replacer = FileReplacer()
        try write(bytes(2_000, 20), to: first, with: replacer)
        try write(bytes(2_500, 21), to: second, with: replacer)
        replacer.discardSpare()
        #expect(holds(golden, old), "the hard link still holds the earlier bytes")
        #expect(holds(first, bytes(2_000, 20)) && holds(second, bytes(2_500, 21)))
        #expect(inode(second) != inode(golden))
        #expect(try hidden(dir).isEmpty)
    }

    @Test func aSymbolicLinkIsReplacedAndItsTargetLeftAlone() throws {
        let dir = try folder("symlink")
        let target = dir + "/target.bin", first = dir + "/frame-1.png", second = dir + "/frame-2.png"
        let kept = bytes(4_000, 5)
        #expect(FileManager.default.createFile(atPath: target, contents: Data(kept)))
        #expect(symlink(target, first) == 0)
        #expect(FileManager.default.createFile(atPath: second, contents: Data(bytes(4_000, 6))))
        let replacer = FileReplacer()
        try write(bytes(1_000, 30), to: first, with: replacer)
        try write(bytes(1_500, 31), to: second, with: replacer)
        replacer.discardSpare()
        #expect(holds(target, kept), "the link's target is not written")
        var status = stat()
        #expect(lstat(first, &status) == 0 && status.st_mode & S_IFMT == S_IFREG, "the link is replaced by the file, as a rename does")
        #expect(holds(first, bytes(1_000, 30)) && holds(second, bytes(1_500, 31)))
        #expect(try hidden(dir).isEmpty)
    }

    @Test func aReadOnlyFileIsNotWrittenOver() throws {
        let dir = try folder("read-only")
        let first = dir + "/frame-1.png", second = dir + "/frame-2.png"
        #expect(FileManager.default.createFile(atPath: first, contents: Data(bytes(3_000, 7))))
        #expect(chmod(first, 0o444) == 0)
        let replacer = FileReplacer()
        try write(bytes(800, 40), to: first, with: replacer)
        try write(bytes(900, 41), to: second, with: replacer)
        var status = stat()
        #expect(lstat(second, &status) == 0 && status.st_mode & S_IWUSR != 0, "a new file, not the read-only one written over")
        #expect(holds(first, bytes(800, 40)) && holds(second, bytes(900, 41)))
        #expect(try hidden(dir).isEmpty, "the read-only file was removed, not kept")
    }

    @Test func aFolderInTheWayIsAnErrorAndStaysWhereItIs() throws {
        let dir = try folder("folder")
        let path = dir + "/frame-1.png"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/inside", contents: Data("keep".utf8)))
        let replacer = FileReplacer()
        #expect {
            try write(bytes(100, 1), to: path, with: replacer)
        } throws: { error in
            (error as? FileWriteError)?.path == path && (error as? FileWriteError)?.reason.contains("rename") == true
        }
        #expect(holds(path + "/inside", Array("keep".utf8)))
        #expect(try hidden(dir).isEmpty)
    }

    @Test func partialNamesAreHiddenNextToTheFile() {
        #expect(FileReplacer.partialPrefix(for: "/a/b/frame-0001.png") == "/a/b/.frame-0001.png.partial-")
        #expect(FileReplacer.partialPrefix(for: "frame.png") == ".frame.png.partial-")
        #expect(FileReplacer.partialName(for: "/a/frame.png") == "/a/.frame.png.partial-\(getpid())")
    }
}
