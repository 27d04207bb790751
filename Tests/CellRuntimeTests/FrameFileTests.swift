import CellIO
import CellKit
import CellRender
import Foundation
import CellTestSupport
import Testing
@testable import CellRuntime

/// Frames appear under their own names only once complete: a run into a folder holding an earlier
/// run's frames replaces them, and a worker that dies leaves only hidden partial files, which the
/// supervisor removes.
@Suite struct FrameFileTests {
    @Test func aRunReplacesAnEarlierRunsFramesAndLeavesNothingHidden() throws {
        let dir = temporaryDirectory()
        // An earlier run's frames, of another size and content.
        for i in 1...30 {
            try RasterImage(width: 4, height: 4, fill: .black).writePNG(path: dir + "/frame-\(String(format: "%04d", i)).png")
        }
        let recorder = TraceRecorder(sink: ExampleStreamTests.Collector())
        let end = RunSession.run(RunOptions(plugins: [BuiltProducts.samplePlugin("ProgressMeter"), BuiltProducts.samplePlugin("BadgeCell")],
                                            framesDirectory: dir),
                                 output: recorder)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        #expect(recorder.frameFiles.count == end.frames && end.frames > 1)
        var sizes = Set<Int>()
        for name in recorder.frameFiles {
            let image = try RasterImage.decodePNG(path: dir + "/" + name)
            sizes.insert(image.width * 100_000 + image.height)
        }
        #expect(sizes.count == 1 && !sizes.contains(4 * 100_000 + 4), "every frame is this run's: \(sizes)")
        let hidden = (directoryEntries(dir) ?? []).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "no partial file is left: \(hidden)")
    }

    @Test func recoveryRemovesPartialFramesAndNamesTheLostOnes() throws {
        let dir = temporaryDirectory()
        try RasterImage(width: 2, height: 2, fill: .white).writePNG(path: dir + "/frame-0001.png")
        // Frame 2 was being written by some worker when it died; frame 3 was never started.
        for pid in [123, 4567] {
            let partial = FileReplacer.partialPrefix(for: dir + "/frame-0002.png") + "\(pid)"
            #expect(FileManager.default.createFile(atPath: partial, contents: Data("half a PNG".utf8)))
        }
        let unrelated = dir + "/.notes"
        #expect(FileManager.default.createFile(atPath: unrelated, contents: Data("keep".utf8)))
        let lost = Supervisor.recoverFrames(in: dir, names: ["frame-0001.png", "frame-0002.png", "frame-0003.png"])
        #expect(lost == ["frame-0002.png", "frame-0003.png"])
        #expect(directoryEntries(dir) == [".notes", "frame-0001.png"])
    }
}
