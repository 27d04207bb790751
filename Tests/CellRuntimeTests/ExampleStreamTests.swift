import CellIO
import CellTestSupport
import Testing
@testable import CellRuntime
import Glibc

/// The example streams shipped in SDK/schema/examples parse and run to the end with the sample
/// plugins, so the documentation never shows a stream that fails.
@Suite(.serialized) struct ExampleStreamTests {
    final class Collector: TraceSink {
        var records: [TraceRecord] = []
        func write(_ record: TraceRecord) { records.append(record) }
        func finish() throws(SinkError) {}
    }

    static let examples = BuiltProducts.packageRoot + "/SDK/schema/examples"

    static let files: [String] = (directoryEntries(examples) ?? []).filter { $0.hasSuffix(".jsonl") }

    @Test func thereAreExamples() { #expect(Self.files.count >= 4) }

    /// The examples are what users copy: every line is one JSON object (their comments are
    /// `note` fields), so any JSON Lines tool reads them, not only cellhost.
    @Test(arguments: files) func exampleIsStrictJSONLines(_ name: String) throws {
        let text = try #require(readTextFile(Self.examples + "/" + name))
        #expect(text.hasSuffix("\n"))
        for (number, line) in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let value = try? JSON.parse(String(line))
            #expect(value?.objectPairs != nil, "\(name):\(number + 1) is not a JSON object")
        }
    }

    @Test(arguments: files) func exampleRunsToTheEnd(_ name: String) throws {
        let path = Self.examples + "/" + name
        let text = try #require(readTextFile(path))
        let (_, parsed) = try EventStreamParser.parse(text, source: name)
        let collector = Collector()
        let recorder = TraceRecorder(sink: collector)
        let end = RunSession.run(RunOptions(events: path, plugins: [BuiltProducts.samplePlugin("ProgressMeter"),
                                                                    BuiltProducts.samplePlugin("BadgeCell")]),
                                 output: recorder)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        #expect(end.events == parsed.count)
        #expect(recorder.eventsRecorded == parsed.count)
    }
}
