import CellIO
import CellRuntime
import CellSnapshots
import Glibc

extension Figures {
    /// `cellhost test`'s cost over the run itself: a stream of 100 full-viewport named captures
    /// (highlight on and off, the bench list at scale 3) compared against its references, and
    /// the same stream run writing the same captures without comparing, interleaved. Both run
    /// in this process, so the worker's start (the same for both) does not dilute the ratio.
    func snapshotComparison() throws -> FigureLine {
        guard let dir = makeTemporaryDirectory(prefix: "cellhost-bench-snapshots") else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        defer { _ = system("rm -rf '\(dir)'") }
        let captures = 100
        var lines = [list.stream(items: 1000)]
        for i in 0..<captures {
            lines.append(#"{"cell": "\#(BenchList.builtinCell)", "highlighted": \#(i % 2 == 0)}"#)
            lines.append(#"{"capture": "c\#(i)"}"#)
        }
        let stream = dir + "/captures.jsonl"
        do { try WholeText.write(lines.joined(separator: "\n") + "\n", to: stream) } catch { throw BenchError("\(error)") }

        let plan = SnapshotPlan(streams: [stream], snapshots: nil, shard: nil)
        func compare(_ mode: RecordMode) throws {
            let report = SnapshotTestRun(recordMode: mode, isolation: .inProcess).run(plan)
            guard report.outcomes.count == captures else { throw BenchError("\(report.outcomes.count) of \(captures) captures ran") }
            if mode == .never, !report.passed { throw BenchError(report.summary) }
        }
        /// As `cellhost test` runs a stream, less the comparing: the captures written into a
        /// fresh scratch folder, which is removed afterwards.
        func runOnly() throws {
            guard let scratch = makeTemporaryDirectory(prefix: "cellhost-bench-run") else {
                throw BenchError("cannot create a temporary directory in /tmp")
            }
            defer {
                for entry in directoryEntries(scratch) ?? [] { unlink(scratch + "/" + entry) }
                rmdir(scratch)
            }
            let end = RunSession.run(RunOptions(events: stream, framesDirectory: scratch, capturesOnly: true), output: DiscardedOutput())
            guard end.outcome == .ok else { throw BenchError("captures stream: \(end.message ?? "\(end.outcome)")") }
        }
        try compare(.missing)
        let count = quick ? 1 : 7
        var withoutTimes: [Double] = [], withTimes: [Double] = []
        let clock = ContinuousClock()
        try runOnly()
        for _ in 0..<count {
            var start = clock.now
            try runOnly()
            withoutTimes.append((clock.now - start).seconds)
            start = clock.now
            try compare(.never)
            withTimes.append((clock.now - start).seconds)
        }
        let without = Samples(withoutTimes), with = Samples(withTimes)
        let ratio = with.p50 / without.p50
        return FigureLine(name: "cellhost test: 100 captures compared with references",
                          measured: "p50 \(Format.time(with.p50))",
                          reference: "the same run writing the captures without comparing, p50 \(Format.time(without.p50))",
                          ratio: ratio, target: "≤ 1.2×", met: ratio <= 1.2)
    }
}

/// A text file written whole (the bench's stream).
enum WholeText {
    static func write(_ text: String, to path: String) throws(SinkError) {
        let file = try AtomicFile(path: path)
        file.write(text)
        try file.commit()
    }
}
