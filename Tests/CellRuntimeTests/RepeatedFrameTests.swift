import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// Identical consecutive frames are written once: the later frame's trace names the earlier
/// frame's file and says which frame it repeats; a frame that differs is written as before.
@Suite struct RepeatedFrameTests {
    func run(_ events: String, framesOnlyForCaptures: Bool = false) throws -> (frames: [FrameTrace], directory: String) {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-repeats")
        let stream = dir + "/s.jsonl"
        writeFile(NamedCaptureTests.scene + "\n" + events + "\n", to: stream)
        let collector = ExampleStreamTests.Collector()
        var options = RunOptions(events: stream, framesDirectory: dir + "/frames")
        options.framesOnlyForCaptures = framesOnlyForCaptures
        let end = RunSession.run(options, output: TraceRecorder(sink: collector))
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        let frames = collector.records.flatMap { record -> [FrameTrace] in
            if case .event(let e) = record { return e.frames }
            return []
        }
        return (frames, dir + "/frames")
    }

    @Test func aFrameThatChangesNothingPointsAtTheLastWrittenFile() throws {
        let (frames, dir) = try run("""
            {"cell": "inbox", "selected": true}
            {"capture": true}
            {"capture": true}
            {"cell": "inbox", "selected": false}
            {"capture": true}
            """)
        #expect(frames.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(frames.map(\.file) == ["frame-0001.png", "frame-0002.png", "frame-0002.png", "frame-0002.png",
                                       "frame-0005.png", "frame-0005.png"])
        #expect(frames.map(\.sameAs) == [nil, nil, 2, 2, nil, 5])
        #expect(directoryEntries(dir) == ["frame-0001.png", "frame-0002.png", "frame-0005.png"])
        // The deselection repaints to what the first frame showed, but it is not consecutive: it is written.
        #expect(try RasterImage.decodePNG(path: dir + "/frame-0005.png") == (try RasterImage.decodePNG(path: dir + "/frame-0001.png")))
    }

    /// `--frames captures`: numbered frames only for capture events, named or not.
    @Test func framesOfCapturesOnly() throws {
        let (frames, dir) = try run("""
            {"cell": "inbox", "selected": true}
            {"capture": true}
            {"cell": "sent", "selected": true}
            {"capture": "both"}
            """, framesOnlyForCaptures: true)
        #expect(frames.map(\.index) == [1, 2, 3, 4, 5])
        #expect(frames.map(\.file) == [nil, nil, "frame-0003.png", nil, "frame-0005.png"])
        #expect(frames.allSatisfy { $0.sameAs == nil })
        #expect(directoryEntries(dir) == ["both.png", "frame-0003.png", "frame-0005.png"])
    }

    @Test func theTraceCarriesThePointerThroughJSON() throws {
        var frame = FrameTrace(index: 3, file: "frame-0002.png", damage: [], damagedPixels: 0)
        frame.sameAs = 2
        #expect(try FrameTrace(json: frame.json) == frame)
        #expect(try FrameTrace(json: FrameTrace(index: 2, file: "frame-0002.png", damage: [], damagedPixels: 10).json).sameAs == nil)
    }
}
