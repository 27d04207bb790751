import CellIO
import CellRender
import CellRuntime
import Glibc

/// `cellhost test`'s work: runs each planned stream (once per trait combination) through the
/// same machinery as `cellhost run` — a worker process, so a plugin that crashes or hangs fails
/// that run only and the others go on — writing only its named captures into a scratch folder,
/// then compares each capture's image and trace with its references, or records them as the
/// record mode says. Files for a person (`.actual.png`, `.diff.png`, `.trace.diff`) are written
/// next to the reference only on a mismatch, and removed once the capture passes again.
public struct SnapshotTestRun {
    public var plugins: [String]
    public var recordMode: RecordMode
    public var isolation: RunIsolation

    public init(plugins: [String] = [], recordMode: RecordMode = .missing, isolation: RunIsolation) {
        self.plugins = plugins
        self.recordMode = recordMode
        self.isolation = isolation
    }

    /// `didFinish`: called after each stream with its outcomes (progress for a terminal).
    public func run(_ plan: SnapshotPlan, didFinish: ([SnapshotOutcome]) -> Void = { _ in }) -> SnapshotReport {
        var outcomes: [SnapshotOutcome] = []
        for stream in plan.streams {
            var streamOutcomes: [SnapshotOutcome] = []
            if let problem = stream.problem {
                streamOutcomes.append(SnapshotOutcome(stream: stream.path, capture: nil, status: .error, message: problem))
            }
            for run in stream.runs { streamOutcomes += self.run(run, of: stream) }
            didFinish(streamOutcomes)
            outcomes += streamOutcomes
        }
        return SnapshotReport(outcomes: outcomes, recordMode: recordMode)
    }

    /// One run of a stream, and its captures compared.
    func run(_ run: SnapshotPlan.Run, of stream: SnapshotPlan.Stream) -> [SnapshotOutcome] {
        func failAll(_ message: String) -> [SnapshotOutcome] {
            run.captures.map { SnapshotOutcome(stream: stream.path, capture: $0.name, status: .error, message: message) }
        }
        guard let scratch = makeTemporaryDirectory(prefix: "cellhost-test") else {
            return failAll("cannot make a scratch folder in /tmp: \(String(cString: strerror(errno)))")
        }
        defer { removeScratch(scratch) }
        let options = RunOptions(events: stream.path, plugins: plugins, framesDirectory: scratch, capturesOnly: true,
                                 matrixCombination: run.combination)
        let collector = TraceCollector()
        let end: TraceEnd
        do { end = try RunSession.play(options, into: [collector], isolation: isolation) } catch {
            return failAll(error.description)
        }
        guard end.outcome == .ok else {
            return failAll(end.message ?? "the run ended with \(end.outcome.rawValue)")
        }
        return run.captures.map { capture in
            let trace = TraceSnapshot.text(of: collector.events.lazy.filter {
                $0.number >= capture.firstEvent && $0.number <= capture.event
            })
            return compare(capture, of: stream, actualPNG: scratch + "/" + capture.name + ".png", trace: trace)
        }
    }

    /// The files of one capture next to its references.
    struct Files {
        var reference: String
        var referenceTrace: String
        var actual: String
        var diff: String
        var traceDiff: String

        init(directory: String, name: String) {
            let stem = directory + "/" + name
            reference = stem + ".png"
            referenceTrace = stem + ".trace.jsonl"
            actual = stem + ".actual.png"
            diff = stem + ".diff.png"
            traceDiff = stem + ".trace.diff"
        }

        var mismatchFiles: [String] { [actual, diff, traceDiff] }
    }

    func compare(_ capture: SnapshotPlan.Capture, of stream: SnapshotPlan.Stream, actualPNG: String,
                 trace: String) -> SnapshotOutcome {
        var outcome = SnapshotOutcome(stream: stream.path, capture: capture.name, status: .failed)
        guard let actualBytes = readFileBytes(actualPNG) else {
            outcome.status = .error
            outcome.message = "the run wrote no \(capture.name).png"
            return outcome
        }
        let files = Files(directory: stream.referenceDirectory, name: capture.name)
        func record(_ why: String) -> SnapshotOutcome {
            do {
                try makeDirectories(stream.referenceDirectory)
                try WholeFile.write(actualBytes, to: files.reference)
                try WholeFile.write(trace, to: files.referenceTrace)
            } catch {
                outcome.message = "\(why), but recording failed: \(error)"
                return outcome
            }
            files.mismatchFiles.forEach(WholeFile.remove)
            outcome.status = .recorded
            outcome.message = why
            outcome.files = [files.reference, files.referenceTrace]
            return outcome
        }
        let hasReference = WholeFile.exists(files.reference) && WholeFile.exists(files.referenceTrace)
        if recordMode == .all { return record("record mode is on (--record all): recorded the reference") }
        if !hasReference {
            if recordMode == .never {
                let missing = WholeFile.exists(files.reference) ? files.referenceTrace : files.reference
                outcome.message = "no reference was found (\(missing)); --record never records nothing"
                return outcome
            }
            return record("no reference was found: recorded one")
        }
        guard let referenceBytes = readFileBytes(files.reference), let referenceTrace = readTextFile(files.referenceTrace) else {
            outcome.message = "cannot read the reference \(files.reference) or \(files.referenceTrace)"
            return outcome
        }
        let comparison: ImageComparison, expectedImage: RasterImage?, actualImage: RasterImage?
        do {
            (comparison, expectedImage, actualImage) = try ImageComparison.compare(
                expected: referenceBytes, actual: actualBytes,
                decodeExpected: { () throws(PNGError) in try RasterImage.decodePNG(path: files.reference) },
                decodeActual: { () throws(PNGError) in try RasterImage.decodePNG(path: actualPNG) },
                tolerance: stream.tolerance)
        } catch {
            outcome.message = "the reference \(files.reference) cannot be decoded as a PNG (\(error.reason)); record it again with --record all"
            return outcome
        }
        let traceDiff = UnifiedDiff.diff(from: referenceTrace, to: trace, oldName: files.referenceTrace,
                                         newName: capture.name + " (this run)")
        if comparison.matches && traceDiff == nil {
            files.mismatchFiles.forEach(WholeFile.remove)
            outcome.status = .passed
            return outcome
        }
        var reasons: [String] = []
        if !comparison.matches { reasons.append("image: " + comparison.explanation) }
        if let traceDiff {
            let changed = traceDiff.split(separator: "\n").filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }.count
            reasons.append("trace: \(changed) line\(changed == 1 ? "" : "s") differ")
        }
        let why = "does not match the reference (" + reasons.joined(separator: "; ") + ")"
        if recordMode == .failed { return record(why + "; recorded it again (--record failed)") }
        do {
            if !comparison.matches, let expectedImage, let actualImage {
                try WholeFile.write(actualBytes, to: files.actual)
                let diff = DiffImage.make(expected: expectedImage, actual: actualImage, channelTolerance: stream.tolerance.channel,
                                          bounds: comparison.bounds)
                do { try diff.writePNG(path: files.diff) } catch { throw SnapshotError("cannot write \(error)") }
                outcome.files += [files.actual, files.diff]
            } else {
                [files.actual, files.diff].forEach(WholeFile.remove)
            }
            if let traceDiff {
                try WholeFile.write(traceDiff, to: files.traceDiff)
                outcome.files.append(files.traceDiff)
            } else {
                WholeFile.remove(files.traceDiff)
            }
        } catch {
            outcome.message = why + "; \(error)"
            return outcome
        }
        outcome.message = why
        return outcome
    }

    private func removeScratch(_ scratch: String) {
        for entry in directoryEntries(scratch) ?? [] { unlink(scratch + "/" + entry) }
        rmdir(scratch)
    }
}
