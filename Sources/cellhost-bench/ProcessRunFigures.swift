import CellIO
import Glibc

/// `cellhost run` as users run it: a process, the default worker mode, JSONL and Chrome traces
/// written (`--trace`, `--chrome-trace`; no frames), the table not shown (`--quiet`), on streams the bench writes to a temporary
/// file: state changes over a 1,000-item list in a 390×844 pt viewport at scale 3. The CPU of a
/// run is its children's (supervisor and worker) user + system time from `getrusage`; a run of
/// the same stream without events is subtracted, so start-up (fonts, plugins, the first display)
/// does not count per event. Measured once for the three figures that read it.
final class ProcessRunMeasurement {
    let cellhost: String
    let events: Int

    init(executable: String, quick: Bool) {
        let dir = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        cellhost = dir + "/cellhost"
        events = quick ? 2_000 : 100_000
    }

    struct Result {
        /// CPU seconds per event: the mixed stream in the worker and in-process, the stream of
        /// off-screen rows and the one of a visible row in the worker.
        var worker: Double, inProcess: Double, offScreen: Double, offScreenInProcess: Double, visibleRow: Double
        /// A memset of the visible row's damaged bytes, seconds.
        var memset: Double
        var damagedBytes: Int
    }

    private var measured: Result?

    func result() throws -> Result {
        if let measured { return measured }
        guard access(cellhost, X_OK) == 0 else { throw BenchError("\(cellhost) is not built") }
        guard let dir = makeTemporaryDirectory(prefix: "cellhost-bench-run") else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        defer { _ = system("rm -rf '\(dir)'") }
        // The mixed stream: every item in turn, so most changes are off screen and some repaint a row.
        let mixed = try perEvent(dir, "mixed", cells: Array(0..<1000))
        let mixedInProcess = try perEvent(dir, "mixed", inProcess: true, cells: Array(0..<1000))
        let offScreen = try perEvent(dir, "offscreen", cells: Array(100..<1000))
        let offScreenInProcess = try perEvent(dir, "offscreen", inProcess: true, cells: Array(100..<1000))
        let visible = try perEvent(dir, "visible", cells: [2])
        let damaged = try damagedPixelsPerEvent("\(dir)/visible-out-trace.jsonl")
        let result = Result(worker: mixed, inProcess: mixedInProcess, offScreen: offScreen,
                            offScreenInProcess: offScreenInProcess, visibleRow: visible,
                            memset: Self.memsetSeconds(bytes: damaged * 4), damagedBytes: damaged * 4)
        measured = result
        return result
    }

    /// CPU seconds per event of a stream that goes through `cells` (item numbers) in turn,
    /// toggling each one's highlight, so every event changes a state.
    private func perEvent(_ dir: String, _ name: String, inProcess: Bool = false, cells: [Int]) throws -> Double {
        let stream = "\(dir)/\(name).jsonl", empty = "\(dir)/\(name)-empty.jsonl"
        try writeStream(to: stream, events: events, cells: cells)
        try writeStream(to: empty, events: 0, cells: cells)
        let out = "\(dir)/\(name)\(inProcess ? "-in-process" : "")"
        _ = try cpuSeconds(empty, out: out + "-empty", inProcess: inProcess)  // warms the page cache
        let base = try cpuSeconds(empty, out: out + "-empty", inProcess: inProcess)
        let full = try cpuSeconds(stream, out: out + "-out", inProcess: inProcess)
        return max(0, full - base) / Double(events)
    }

    private func writeStream(to path: String, events: Int, cells: [Int]) throws {
        var text = #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 3}}"# + "\n"
        text += #"{"section": {"id": "s", "header": "Items"}}"# + "\n"
        for i in 0..<1000 { text += #"{"item": {"id": "c\#(i)", "set": {"text": "Item \#(i)"}}}"# + "\n" }
        for i in 0..<events { text += #"{"cell": "c\#(cells[i % cells.count])", "highlighted": \#((i / cells.count) % 2 == 0 ? "true" : "false")}"# + "\n" }
        try FileCopy.write(Array(text.utf8), to: path)
    }

    /// Runs `cellhost run` on `stream` and returns its children's CPU seconds.
    private func cpuSeconds(_ stream: String, out: String, inProcess: Bool) throws -> Double {
        var arguments = ["cellhost", "run", "--events", stream, "--trace", out + "-trace.jsonl",
                         "--chrome-trace", out + "-trace.chrome.json", "--quiet"]
        if inProcess { arguments.append("--in-process") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let before = Self.childrenCPUSeconds()
        var pid: pid_t = 0
        guard posix_spawn(&pid, cellhost, &actions, nil, argv, environ) == 0 else { throw BenchError("cannot start \(cellhost)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw BenchError("cellhost run \(stream) failed (status \(status))") }
        return Self.childrenCPUSeconds() - before
    }

    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The damaged pixels per event of a run, from its JSONL trace (the first display excluded).
    private func damagedPixelsPerEvent(_ trace: String) throws -> Int {
        guard let text = readTextFile(trace) else { throw BenchError("no trace at \(trace)") }
        var pixels = 0, count = 0
        for line in text.split(separator: "\n") {
            guard let json = try? JSON.parse(String(line)), json["record"]?.stringValue == "event",
                  let number = json["event"]?.intValue, number > 0 else { continue }
            count += 1
            for frame in json["frames"]?.arrayValue ?? [] { pixels += Int(frame["damagedPixels"]?.intValue ?? 0) }
        }
        return count == 0 ? 0 : pixels / count
    }

    /// p50 of a memset of `bytes` (a fresh pattern each time, so none is skipped).
    private static func memsetSeconds(bytes: Int) -> Double {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 64)
        defer { buffer.deallocate() }
        var pattern: Int32 = 0
        return Samples.measure(warmUp: 10, count: 2001) {
            pattern = (pattern + 1) & 0xFF
            memset(buffer, pattern, bytes)
        }.p50
    }
}

extension Figures {
    func processCPURatio() throws -> FigureLine {
        let r = try processRun.result()
        let ratio = r.worker / r.inProcess
        return FigureLine(name: "cellhost run as a process, worker vs in-process CPU per event",
                          measured: "\(Format.time(r.worker)) per event (\(processRun.events) highlight changes over 1,000 items, JSONL + Chrome traces)",
                          reference: "--in-process, same stream and outputs: \(Format.time(r.inProcess)) per event",
                          ratio: ratio, target: "≤ 1.3×", met: ratio <= 1.3)
    }

    func processOffScreenRate() throws -> FigureLine {
        let r = try processRun.result()
        let rate = r.offScreen > 0 ? 1 / r.offScreen : .infinity
        return FigureLine(name: "cellhost run as a process, events that repaint nothing",
                          measured: "\(Format.count(rate)) events per CPU second (\(Format.time(r.offScreen)) per event, rows off screen; in-process \(Format.time(r.offScreenInProcess)))",
                          reference: "—", ratio: nil, target: "≥ 150,000/s", met: rate >= 150_000)
    }

    func processVisibleRowRepaint() throws -> FigureLine {
        let r = try processRun.result()
        let ratio = r.visibleRow / r.memset
        return FigureLine(name: "cellhost run as a process, events that repaint one row",
                          measured: "\(Format.time(r.visibleRow)) CPU per event",
                          reference: "memset of the damaged rows' \(Format.count(Double(r.damagedBytes))) bytes p50 \(Format.time(r.memset))",
                          ratio: ratio, target: "≤ 10×", met: ratio <= 10)
    }
}
