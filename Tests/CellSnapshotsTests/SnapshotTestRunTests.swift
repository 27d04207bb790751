import CellIO
import CellRender
import CellRuntime
import Glibc
import Testing
@testable import CellSnapshots

/// Record modes, mismatch files and bad input, run in-process on built-in list cells.
@Suite struct SnapshotTestRunTests {
    static let stream = """
        {"scene": {"viewport": {"width": 320, "height": 240}, "scale": 1}}
        {"item": {"id": "inbox", "set": {"text": "Inbox"}}}
        {"item": {"id": "sent", "set": {"text": "Sent"}}}
        {"capture": "list"}
        {"cell": "inbox", "selected": true}
        {"capture": {"name": "inbox-selected", "cell": "inbox"}}

        """

    /// A folder with the stream as `mail.jsonl`.
    struct Fixture {
        let folder: String
        var stream: String { folder + "/mail.jsonl" }
        var references: String { folder + "/__Snapshots__/mail" }

        init(_ text: String = SnapshotTestRunTests.stream) {
            folder = makeTemporaryDirectory(prefix: "cellhost-snapshots")!
            write(text)
        }

        func write(_ text: String) {
            let file = fopen(stream, "w")!
            fputs(text, file)
            fclose(file)
        }

        func run(_ mode: RecordMode, shard: Shard? = nil) -> SnapshotReport {
            let plan = SnapshotPlan(streams: [stream], snapshots: nil, shard: shard)
            return SnapshotTestRun(recordMode: mode, isolation: .inProcess).run(plan)
        }

        func exists(_ name: String) -> Bool { access(references + "/" + name, F_OK) == 0 }
    }

    @Test func missingReferencesAreRecordedAndFailTheRunThenPass() {
        let f = Fixture()
        let first = f.run(.missing)
        #expect(first.outcomes.map(\.status) == [.recorded, .recorded])
        #expect(!first.passed)
        #expect(first.summary.contains("References were recorded"))
        for name in ["list.png", "list.trace.jsonl", "inbox-selected.png", "inbox-selected.trace.jsonl"] {
            #expect(f.exists(name), "\(name)")
        }
        let second = f.run(.never)
        #expect(second.passed, "\(second.summary)")
        #expect(second.outcomes.map(\.status) == [.passed, .passed])
        // Passing writes nothing next to the references.
        #expect(Set(directoryEntries(f.references) ?? []).count == 4)
    }

    @Test func aMismatchWritesActualDiffAndTraceDiffAndPassingAgainRemovesThem() throws {
        let f = Fixture()
        _ = f.run(.missing)
        // The list shows Inbox in red (its trace names no property: a first display lists none),
        // and the selection also sets the text, which its trace shows.
        f.write(SnapshotTestRunTests.stream
            .replacingFirst("\"Inbox\"}", with: "\"Inbox\", \"textProperties.color\": \"systemRed\"}")
            .replacingFirst("\"selected\": true}", with: "\"selected\": true, \"set\": {\"text\": \"Inbox!\"}}"))
        let report = f.run(.never)
        let list = try #require(report.failures.first { $0.capture == "list" })
        #expect(list.status == .failed)
        #expect(list.message.hasPrefix("does not match the reference (image: "), "\(list.message)")
        // Only the image differs: the first display's trace names no property.
        #expect(list.files == [f.references + "/list.actual.png", f.references + "/list.diff.png"])
        let selected = try #require(report.failures.first { $0.capture == "inbox-selected" })
        #expect(selected.message.contains("image:") && selected.message.contains("trace:"), "\(selected.message)")
        #expect(selected.files == [f.references + "/inbox-selected.actual.png", f.references + "/inbox-selected.diff.png",
                                   f.references + "/inbox-selected.trace.diff"])
        #expect(report.summary.contains(f.references + "/list.diff.png"))
        // The diff marks the changed pixels (the red text) and nothing outside their bounds.
        let diff = try RasterImage.decodePNG(path: f.references + "/list.diff.png")
        let expected = try RasterImage.decodePNG(path: f.references + "/list.png")
        let actual = try RasterImage.decodePNG(path: f.references + "/list.actual.png")
        let bounds = try #require(ImageComparison.compare(expected, actual, tolerance: .exact).bounds)
        var marked = 0
        for y in 0..<diff.height {
            for x in 0..<diff.width where diff[x, y] == DiffImage.marked {
                marked += 1
                #expect(bounds.contains(x: x, y: y))
            }
        }
        #expect(marked > 0)
        #expect(diff[bounds.x - 2, bounds.y - 2] == DiffImage.box)
        let traceDiff = try #require(readTextFile(f.references + "/inbox-selected.trace.diff"))
        #expect(traceDiff.hasPrefix("--- " + f.references + "/inbox-selected.trace.jsonl\n+++ inbox-selected (this run)\n@@ "))
        #expect(traceDiff.contains(#"\#n+{"cell":"inbox","property":"content.text","old":"\"Inbox\"","new":"\"Inbox!\"","reason":"setByEvent"}"#),
                "\(traceDiff)")

        f.write(SnapshotTestRunTests.stream)
        #expect(f.run(.never).passed)
        for name in ["list.actual.png", "list.diff.png", "inbox-selected.actual.png", "inbox-selected.diff.png",
                     "inbox-selected.trace.diff"] {
            #expect(!f.exists(name), "\(name) left behind")
        }
    }

    @Test func recordFailedRecordsOnlyWhatDiffered() throws {
        let f = Fixture()
        _ = f.run(.missing)
        let before = readFileBytes(f.references + "/inbox-selected.png")
        f.write(SnapshotTestRunTests.stream.replacingFirst("\"Sent\"}", with: "\"Drafts\"}"))
        let report = f.run(.failed)
        #expect(report.outcomes.map(\.status) == [.recorded, .passed])
        #expect(readFileBytes(f.references + "/inbox-selected.png") == before)
        #expect(f.run(.never).passed)
    }

    @Test func recordAllRecordsEverythingAndFails() {
        let f = Fixture()
        _ = f.run(.missing)
        let report = f.run(.all)
        #expect(report.outcomes.map(\.status) == [.recorded, .recorded])
        #expect(report.summary.contains("Record mode is on"))
    }

    @Test func neverRecordsNothing() {
        let f = Fixture()
        let report = f.run(.never)
        #expect(report.outcomes.map(\.status) == [.failed, .failed])
        #expect(report.failures[0].message.contains("no reference was found"))
        #expect(!f.exists("list.png"))
    }

    @Test func anUndecodableReferenceIsNamed() {
        let f = Fixture()
        _ = f.run(.missing)
        let file = fopen(f.references + "/list.png", "w")!
        fputs("not a png", file)
        fclose(file)
        let report = f.run(.never)
        let failure = report.failures.first { $0.capture == "list" }
        #expect(failure?.message.contains(f.references + "/list.png cannot be decoded") == true, "\(failure?.message ?? "")")
        #expect(report.outcomes.first { $0.capture == "inbox-selected" }?.status == .passed)
    }

    @Test func aStreamThatDoesNotParseFailsAloneWithItsLine() {
        let good = Fixture()
        _ = good.run(.missing)
        let bad = Fixture("{\"item\": {\"id\": \"a\"}}\n{\"capture\": \"x\"}\n{\"cell\": \"b\", \"selected\": true}\n")
        let plan = SnapshotPlan(streams: [bad.stream, good.stream], snapshots: nil, shard: nil)
        let report = SnapshotTestRun(recordMode: .never, isolation: .inProcess).run(plan)
        #expect(report.outcomes.map(\.status) == [.error, .passed, .passed])
        #expect(report.outcomes[0].message.hasPrefix(bad.stream + ":3: "), "\(report.outcomes[0].message)")
    }

    @Test func aStreamWithoutNamedCapturesSaysHowToAddOne() {
        let f = Fixture("{\"item\": {\"id\": \"a\"}}\n{\"capture\": true}\n")
        let report = f.run(.missing)
        #expect(report.outcomes.map(\.status) == [.error])
        #expect(report.outcomes[0].message == f.stream + ": the stream has no named capture; add one like {\"capture\": \"selected\"} after the events to check")
    }

    @Test func aRunThatStopsFailsItsCaptures() {
        // The stream parses; the run stops when the engine meets bad input: a capture of a cell
        // below the short viewport.
        let f = Fixture("""
            {"scene": {"viewport": {"width": 320, "height": 60}, "scale": 1}}
            {"item": {"id": "a", "set": {"text": "A"}}}
            {"item": {"id": "b", "set": {"text": "B"}}}
            {"item": {"id": "c", "set": {"text": "C"}}}
            {"capture": {"name": "far", "cell": "c"}}

            """)
        let report = f.run(.missing)
        #expect(report.outcomes.map(\.status) == [.error])
        #expect(report.outcomes[0].message.contains("not on screen"), "\(report.outcomes[0].message)")
    }

    @Test func shardsSplitTheCapturesOfAStream() {
        let f = Fixture()
        let shards = (1...3).map { f.run(.missing, shard: try! Shard(index: $0, count: 3)).outcomes.compactMap(\.capture) }
        #expect(shards.flatMap { $0 }.sorted() == ["inbox-selected", "list"])
    }

    @Test func theJUnitReportHasOneCasePerCapture() {
        let f = Fixture()
        let xml = JUnitReport.xml(f.run(.missing))
        #expect(xml.contains("<testsuites name=\"cellhost test\" tests=\"2\" failures=\"2\" errors=\"0\">"))
        #expect(xml.contains("<testcase classname=\"\(f.stream)\" name=\"list\">"))
        #expect(xml.contains("<failure message=\"no reference was found: recorded one\">"))
        #expect(JUnitReport.escape("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;?")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
