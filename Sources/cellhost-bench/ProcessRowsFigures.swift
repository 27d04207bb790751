import Glibc

/// Long lists through `cellhost run` as a process (default worker mode, `--quiet`, no trace
/// files: a million events' traces would be the run's largest cost and its disk), fed through
/// standard input in stages (`FedRun`) so one run gives its memory and speed early and late.
/// Lists in a 390×844 pt viewport at scale 3, cycling through three built-in list styles.
final class ProcessRowsMeasurement {
    let cellhost: String
    let quick: Bool

    init(executable: String, quick: Bool) {
        let dir = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        cellhost = dir + "/cellhost"
        self.quick = quick
    }

    static let scene = #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 3}}"# + "\n"
        + #"{"section": {"id": "s", "header": "Items"}}"# + "\n"
    static let styles = ["cell", "subtitleCell", "valueCell"]

    /// Item `i`, with the id `r` + `number` (`i` unless given).
    static func item(_ i: Int, number: Int? = nil) -> String {
        #"{"item": {"id": "r\#(number ?? i)", "style": "\#(styles[i % 3])", "set": {"text": "Item \#(i)", "secondaryText": "\#(i % 97)"}}}"# + "\n"
    }

    /// The scene ends where its first event begins: a scroll by nothing ends it, so the list is
    /// loaded and shown before anything is measured per event.
    static let endOfScene = #"{"scroll": {"by": 0}}"# + "\n"

    /// `count` events as one text, made by `event(k)` for k in `range`.
    static func events(_ range: Range<Int>, _ event: (Int) -> String) -> String {
        var text = ""
        text.reserveCapacity(range.count * 48)
        for k in range { text += event(k) }
        return text
    }

    struct Scroll {
        var events: Int
        var firstCPU: Double, lastCPU: Double
        var rssAfterFirst: Int, rssAtEnd: Int
    }

    /// A series of a million items scrolled one row per event: the worker's memory after the
    /// first 10,000 events and at the end, and the CPU of the first and the last 10,000.
    private var measuredScroll: Scroll?
    private var measuredWritten: Written?

    func scroll() throws -> Scroll {
        if let measuredScroll { return measuredScroll }
        guard access(cellhost, X_OK) == 0 else { throw BenchError("\(cellhost) is not built") }
        let total = quick ? 20_000 : 1_000_000, window = 10_000
        let run = try FedRun(cellhost: cellhost, arguments: ["--quiet"])
        let templates = Self.styles.map { #"{"style": "\#($0)", "set": {"text": "Item", "secondaryText": "Detail"}}"# }
        try run.write(Self.scene + #"{"items": {"id": "row{n}", "count": 1000000, "templates": [\#(templates.joined(separator: ", "))]}}"# + "\n" + Self.endOfScene)
        let scroll = #"{"scroll": {"by": 44}}"# + "\n"
        let start = try run.settle()
        try run.write(String(repeating: scroll, count: window))
        let first = try run.settle()
        var written = window
        while written < total - window {
            let n = min(100_000, total - window - written)
            try run.write(String(repeating: scroll, count: n))
            written += n
        }
        let beforeLast = try run.settle()
        try run.write(String(repeating: scroll, count: window))
        let end = try run.settle()
        try run.finish()
        let result = Scroll(events: total, firstCPU: first.cpu - start.cpu, lastCPU: end.cpu - beforeLast.cpu,
                            rssAfterFirst: first.workerKB, rssAtEnd: end.workerKB)
        measuredScroll = result
        return result
    }

    struct Written {
        /// Per list size: CPU seconds per event of 100,000 highlight changes on the same off-screen items spread
        /// over the list (the scheduler's nanoseconds, not /proc's ticks).
        var perEvent: [(items: Int, seconds: Double)]
        /// The million-item list: wall seconds until it was loaded and shown, the worker's peak kB,
        /// with ids numbered in list order (`r0`, `r1`, …, as a generated list has them) and with
        /// the same ids in no order (as ids a list did not number itself are).
        var loadSeconds: Double, loadPeakKB: Int
        var unorderedLoadSeconds = 0.0, unorderedLoadPeakKB = 0
        /// The million-item list: the worker's resident kB after touching 1,000 and 100,000
        /// distinct rows (each highlighted and unhighlighted).
        var touched1k: Int, touched100k: Int
        /// The list sizes (`--quick` takes smaller ones, so a debug build finishes), the
        /// largest, the distinct rows the per-event figure touches in every size, and the
        /// distinct rows touched at the end.
        var sizes: [Int], largest: Int, touchedPerSize: Int, touchedAtEnd: Int
    }

    /// A run started on `text` once it has taken the text in, with the wall seconds from its
    /// start until then and the worker's peak kB. The text is made before the clock starts (the
    /// figure is the run's, not the bench's); the process's start is timed.
    private func loadedRun(_ text: String) throws -> (run: FedRun, seconds: Double, peakKB: Int) {
        let started = FedRun.now()
        let run = try FedRun(cellhost: cellhost, arguments: ["--quiet"])
        try run.write(text)
        let loaded = try run.settle()
        return (run, loaded.busyUntil - started, loaded.workerPeakKB)
    }

    func written() throws -> Written {
        if let measuredWritten { return measuredWritten }
        guard access(cellhost, X_OK) == 0 else { throw BenchError("\(cellhost) is not built") }
        let sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 100_000, 1_000_000]
        let more = quick ? 9_000 : 99_000
        let offScreen = 100, distinct = sizes[0] - offScreen, step = 7_919
        var result = Written(perEvent: [], loadSeconds: 0, loadPeakKB: 0, touched1k: 0, touched100k: 0,
                             sizes: sizes, largest: sizes[2], touchedPerSize: distinct, touchedAtEnd: 1_000 + more)
        let events = quick ? 2_000 : 100_000
        let unordered = try loadedRun(Self.scene + Self.events(0..<sizes[2]) { Self.item($0, number: $0 * step % sizes[2]) } + Self.endOfScene)
        result.unorderedLoadSeconds = unordered.seconds
        result.unorderedLoadPeakKB = unordered.peakKB
        try unordered.run.finish()
        // Every size's runs are loaded and kept alive, then the events go in parts taking turns
        // between the runs: whatever the machine does meanwhile (other processes, the cores the
        // scheduler picks) falls on all sizes alike rather than on whichever ran during it. Two
        // runs of each size: a run's two processes keep for their whole life what the machine
        // gave them (cores, cache neighbours), which moved a size's cost by a third between runs
        // of the same stream; the cheaper of the two stands for the size.
        var runs: [(items: Int, run: FedRun, before: UInt64)] = []
        for n in sizes {
            let text = Self.scene + Self.events(0..<n) { Self.item($0) } + Self.endOfScene
            for copy in 0..<2 {
                let loaded = try loadedRun(text)
                if n == sizes[2] && copy == 0 {
                    result.loadSeconds = loaded.seconds
                    result.loadPeakKB = loaded.peakKB
                }
                runs.append((n, loaded.run, try loaded.run.cpuNanoseconds()))
            }
        }
        // The same number of distinct items for every size (as many as the smallest list has
        // past its first screens), spread evenly over the list and visited in a scattered
        // order, each on then off: every size gets the same events on rows off screen (a
        // visible row's repaint is its own figure), so only the list's size differs. A first
        // event on an item that scanned the list would still show: one event in a hundred is one.
        func touch(_ n: Int) -> (Int) -> String {
            { k in
                let position = (k / 2 * step) % distinct
                let id = "r\(offScreen + position * ((n - offScreen) / distinct))"
                return #"{"cell": "\#(id)", "highlighted": \#(k % 2 == 0)}"# + "\n"
            }
        }
        // In short parts, keeping each size's cheapest: work elsewhere on the machine only ever
        // adds to a part's CPU time (a busy neighbouring core slows both of the run's processes
        // alike for seconds at a time), so the least of many short parts is nearest the run's own cost.
        let parts = 20, part = events / parts
        var cheapest = [Double](repeating: .infinity, count: runs.count)
        for first in stride(from: 0, to: events, by: part) {
            for (i, entry) in runs.enumerated() {
                try entry.run.write(Self.events(first..<first + part, touch(entry.items)))
                _ = try entry.run.settle()
                let after = try entry.run.cpuNanoseconds()
                let perEvent = Double(after - entry.before) / 1e9 / Double(part)
                cheapest[i] = min(cheapest[i], perEvent)
                runs[i].before = after
            }
        }
        result.perEvent = sizes.map { n in (n, zip(runs, cheapest).filter { $0.0.items == n }.map(\.1).min()!) }
        // Touching continues over new items of the largest list: 1,000 distinct rows, then 100,000.
        // Each size's first run is at an even index, its twin after it.
        for twin in stride(from: 1, to: runs.count, by: 2) { try runs[twin].run.finish() }
        let (n, largest, _) = runs[runs.count - 2]
        func touchFrom(_ base: Int) -> (Int) -> String {
            { k in
                let id = "r\(((base + k / 2) * step) % n)"
                return #"{"cell": "\#(id)", "highlighted": \#(k % 2 == 0)}"# + "\n"
            }
        }
        let base = events / 2
        try largest.write(Self.events(0..<2_000, touchFrom(base)))
        result.touched1k = try largest.settle().workerKB
        try largest.write(Self.events(0..<(2 * more), touchFrom(base + 1_000)))
        result.touched100k = try largest.settle().workerKB
        for first in stride(from: 0, to: runs.count, by: 2) { try runs[first].run.finish() }
        measuredWritten = result
        return result
    }
}

extension Figures {
    func rowsScrollMemory() throws -> FigureLine {
        let s = try processRows.scroll()
        let ratio = Double(s.rssAtEnd) / Double(s.rssAfterFirst)
        return FigureLine(name: "cellhost run as a process, worker memory scrolling a 1,000,000-item list",
                          measured: "\(Format.count(Double(s.rssAtEnd) / 1024)) MiB resident after \(Format.count(Double(s.events))) scroll events (one row each)",
                          reference: "the same worker after the first 10,000 events: \(Format.count(Double(s.rssAfterFirst) / 1024)) MiB",
                          ratio: ratio, target: "≤ 1.2×", met: ratio <= 1.2)
    }

    func rowsScrollSpeed() throws -> FigureLine {
        let s = try processRows.scroll()
        let ratio = s.firstCPU / s.lastCPU
        return FigureLine(name: "cellhost run as a process, speed late in a long scroll",
                          measured: "last 10,000 of \(Format.count(Double(s.events))) scroll events: \(Format.time(s.lastCPU / 10_000)) CPU per event",
                          reference: "the first 10,000 in the same run: \(Format.time(s.firstCPU / 10_000)) per event",
                          ratio: ratio, target: "speed ≥ 0.8× the first's", met: ratio >= 0.8)
    }

    func rowsWrittenPerEvent() throws -> FigureLine {
        let w = try processRows.written()
        let times = w.perEvent.map(\.seconds)
        let ratio = (times.max() ?? 0) / max(times.min() ?? 1, 1e-12)
        let words = w.perEvent.map { "\(Format.count(Double($0.items))) items \(Format.time($0.seconds))" }
        return FigureLine(name: "cellhost run as a process, per-event cost of lists written one item per line",
                          measured: "CPU per highlight change, \(Format.count(Double(w.touchedPerSize))) off-screen items spread over the list: " + words.joined(separator: ", "),
                          reference: "the cheapest of the three", ratio: ratio, target: "≤ 1.2× each other", met: ratio <= 1.2)
    }

    func rowsWrittenLoad() throws -> FigureLine {
        let w = try processRows.written()
        let loads = [("ids in list order", w.loadSeconds, w.loadPeakKB), ("the same ids in no order", w.unorderedLoadSeconds, w.unorderedLoadPeakKB)]
        let words = loads.map { "\($0.0): \(Format.fixed($0.1, 2)) s to the first display, worker peak \(Format.count(Double($0.2) / 1024)) MiB" }
        return FigureLine(name: "cellhost run as a process, loading \(Format.count(Double(w.largest))) items written one per line",
                          measured: words.joined(separator: "; "), reference: "—", ratio: nil, target: "≤ 1.5 s and ≤ 150 MB each",
                          met: loads.allSatisfy { $0.1 <= 1.5 && Double($0.2) * 1024 <= 150e6 })
    }

    func rowsWrittenTouched() throws -> FigureLine {
        let w = try processRows.written()
        let ratio = Double(w.touched100k) / Double(w.touched1k)
        return FigureLine(name: "cellhost run as a process, memory after touching \(Format.count(Double(w.touchedAtEnd))) distinct rows of \(Format.count(Double(w.largest))) written",
                          measured: "\(Format.count(Double(w.touched100k) / 1024)) MiB resident (each row highlighted, then not)",
                          reference: "the same worker after touching 1,000: \(Format.count(Double(w.touched1k) / 1024)) MiB",
                          ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5)
    }
}
