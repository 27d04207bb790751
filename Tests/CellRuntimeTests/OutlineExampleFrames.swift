import CellRender
import CellTestSupport
@testable import CellRuntime

/// `SDK/schema/examples/outlines-and-headers.jsonl` run once as `cellhost run` runs it (with the
/// sample plugins, frames written): the frame the list showed after each event, for the
/// goldens of outlines, sticky headers, separators and header styles.
enum OutlineExampleFrames {
    struct Run: Sendable {
        let directory: String
        /// Each event's summary and the frame file showing the list after it.
        let frames: [(summary: String, file: String)]
    }

    static let run: Run? = {
        let directory = BuiltProducts.temporaryDirectory(prefix: "outline-example")
        let collector = ExampleStreamTests.Collector()
        let end = RunSession.run(RunOptions(events: BuiltProducts.packageRoot + "/SDK/schema/examples/outlines-and-headers.jsonl",
                                            plugins: [BuiltProducts.samplePlugin("BadgeCell"), BuiltProducts.samplePlugin("ProgressMeter")],
                                            framesDirectory: directory),
                                 output: TraceRecorder(sink: collector))
        guard end.outcome == .ok else { return nil }
        var latest = ""
        var frames: [(String, String)] = []
        for case .event(let e) in collector.records {
            if let file = e.frames.last?.file { latest = file }
            frames.append((e.summary, latest))
        }
        return Run(directory: directory, frames: frames)
    }()

    /// The frame after the first event whose summary is `summary` (the last event's for nil).
    static func frame(after summary: String?) throws -> RasterImage? {
        guard let run else { return nil }
        guard let found = summary.map({ s in run.frames.first { $0.summary == s } }) ?? run.frames.last else { return nil }
        return try RasterImage.decodePNG(path: run.directory + "/" + found.file)
    }
}
