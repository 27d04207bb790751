import CellIO
import CellKit
import CellTestSupport
import Glibc
import Testing
@testable import CellRuntime

/// Schema-valid values past the bounds the host accepts (`ValueBounds`) are bad input naming the
/// file and line, never a trap or an allocation without limit in the compositor; values at the
/// bounds run to the end.
@Suite struct StreamValueBoundsTests {
    final class Collector: TraceSink {
        var records: [TraceRecord] = []
        func write(_ record: TraceRecord) { records.append(record) }
        func finish() throws(SinkError) {}
    }

    static let scene = """
        {"scene": {"viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "s"}}
        {"item": {"id": "a", "set": {"text": "A"}}}
        """

    func run(_ lines: String) -> TraceEnd {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-bounds-test")
        let path = dir + "/events.jsonl"
        writeFile(Self.scene + "\n" + lines + "\n", to: path)
        return RunSession.run(RunOptions(events: path),
                              output: TraceRecorder(sink: Collector()))
    }

    /// The values the issue saw crash the worker, and the words naming what was wrong.
    static let outOfBounds: [(set: String, expected: String)] = [
        (#""imageToTextPadding": 1e308"#, "property 'imageToTextPadding': 1e+308 is beyond ±10000 pt"),
        (#""directionalLayoutMargins": 1e300"#, "property 'directionalLayoutMargins': top 1e+300 is beyond ±10000 pt"),
        (#""directionalLayoutMargins": {"top": 0, "leading": -1e300}"#, "leading -1e+300 is beyond ±10000 pt"),
        (#""textProperties.font": {"pointSize": 100000}"#, "point size 100000.0 is outside 0…1000 pt"),
        (#""textProperties.font": 100000"#, "point size 100000.0 is outside 0…1000 pt"),
        (#""textProperties.numberOfLines": 25000000"#, "25000000 is beyond ±10000"),
        (#""imageProperties.preferredSymbolConfiguration": 5000"#, "point size 5000.0 is outside 0…1000 pt"),
        (#""imageProperties.reservedLayoutSize": {"width": 1e300, "height": 1}"#, "width 1e+300 is beyond ±10000 pt"),
        (#""text": "\#(String(repeating: "x", count: 100_001))""#, "a text of 100001 bytes is longer than 100000"),
    ]

    @Test(arguments: outOfBounds)
    func aValuePastTheBoundsIsBadInputNamingTheLine(set: String, expected: String) {
        let end = run(#"{"cell": "a", "set": {\#(set)}}"#)
        #expect(end.outcome == .badInput)
        let message = end.message ?? ""
        #expect(message.contains("events.jsonl:4:"), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    @Test(arguments: [#""strokeWidth": 1e300"#, #""cornerRadius": 1e300"#, #""visualEffect": 1e9"#, #""backgroundInsets": {"top": 1e300}"#])
    func aBackgroundValuePastTheBoundsIsBadInputNamingTheLine(set: String) {
        let end = run(#"{"item": {"id": "b", "background": {"set": {\#(set)}}, "set": {"text": "B"}}}"# + "\n" + #"{"cell": "b", "selected": true}"#)
        #expect(end.outcome == .badInput)
        #expect(end.message?.contains("events.jsonl:4:") == true, "\(end.message ?? "")")
    }

    @Test func valuesAtTheBoundsRunToTheEnd() {
        let end = run("""
            {"item": {"id": "b", "background": {"set": {"strokeWidth": 10000, "cornerRadius": 10000, "visualEffect": 1000}}, "set": {"text": "B", "imageToTextPadding": 10000, "textProperties.font": 1000, "image": "star.fill", "imageProperties.preferredSymbolConfiguration": 1000}}}
            {"item": {"id": "c", "set": {"text": "\(String(repeating: "word ", count: 2_000))", "textProperties.numberOfLines": 10000, "directionalLayoutMargins": -10000}}}
            {"cell": "b", "selected": true}
            {"cell": "c", "set": {"directionalLayoutMargins": 10000}}
            {"scroll": {"to": 1000000}}
            """)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        #expect(end.events == 3)
    }

    @Test(arguments: ["fifo", "/dev/zero", "folder"])
    func anImagePathThatIsNoRegularFileIsBadInputNamingTheLine(kind: String) throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-bounds-test")
        let path: String
        switch kind {
        case "fifo": path = dir + "/pipe.png"; #expect(mkfifo(path, 0o600) == 0)
        case "folder": path = dir + "/folder.png"; #expect(mkdir(path, 0o700) == 0)
        default: path = kind
        }
        let end = run(#"{"cell": "a", "set": {"image": "\#(path)"}}"#)
        #expect(end.outcome == .badInput)
        #expect(end.message?.contains("events.jsonl:4:") == true, "\(end.message ?? "")")
        #expect(end.message?.contains("is not a regular file") == true, "\(end.message ?? "")")
    }
}
