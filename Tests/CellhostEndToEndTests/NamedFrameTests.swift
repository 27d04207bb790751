import CellIO
import CellProcess
import CellRender
import CellTestSupport
import Glibc
import Testing

/// Frames named in a trace exist: the worker encodes frames on a thread of its own, so when a
/// plugin ends the worker right after an event that produced a frame, that frame is usually not
/// on disk yet. The trace must then not name it; every frame it names exists and decodes.
@Suite struct NamedFrameTests {
    /// Event #1 repaints the whole of a large frame (dark mode at scale 3), so its encoding is
    /// still under way when event #2 sets item b's count to 13 and the plugin ends the worker.
    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 3}}
        {"section": {"id": "s", "header": "Cells"}}
        {"item": {"id": "a", "type": "com.validation.test.cell", "set": {"value": 0.5}}}
        {"item": {"id": "b", "type": "com.validation.test.cell", "set": {"count": 3, "title": "Hello"}}}
        {"traits": {"style": "dark"}}
        {"cell": "b", "set": {"count": 13}}
        {"cell": "a", "highlighted": false}

        """

    @Test func aWorkerThatDiesRightAfterAFrameLeavesNoNameOfAFrameThatIsNotThere() throws {
        let plugin = try SandboxTests.build("DIE")
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(Self.stream, to: "\(dir)/events.jsonl")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--plugin", plugin, "--events", "\(dir)/events.jsonl",
                                                   "--out", "\(dir)/out", "--quiet"])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(result.termination == .exited(code: 4), "\(result.standardError)")
        #expect(result.standardError.contains("at event #2"), "\(result.standardError)")

        let records = try (readTextFile("\(dir)/out/trace.jsonl") ?? "").split(separator: "\n").map { try JSON.parse(String($0)) }
        let events = records.filter { $0["record"]?.stringValue == "event" }
        #expect(events.map { $0["event"]?.intValue } == [0, 1], "the events before the crash keep their records")
        let frames = events.flatMap { $0["frames"]?.arrayValue ?? [] }
        #expect(frames.count == 2, "a frame whose file was lost keeps its place in the trace")
        let named = frames.compactMap { $0["file"]?.stringValue }
        #expect(named.contains("frame-0001.png"))
        for name in named {
            let image = try RasterImage.decodePNG(path: "\(dir)/out/frames/\(name)")
            #expect(image.width == 390 * 3 && image.height == 844 * 3, "\(name)")
        }
        let end = records.last
        #expect(end?["frames"]?.intValue == Int64(named.count), "the end record counts the frames on disk")
        let hidden = (directoryEntries("\(dir)/out/frames") ?? []).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "partial frames left: \(hidden)")
    }
}
