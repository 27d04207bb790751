import CellIO
import Glibc
import CellRuntime
import CellKit
import CellPlugins
import CFFI

/// The figures of BENCHMARKS.md, each measured next to its reference in the same run.
struct Figures {
    let list: BenchList
    let quick: Bool
    let executable: String
    let pluginPaths: [String]
    let fill = ReferenceFill(width: 390 * BenchList.scale, height: 844 * BenchList.scale)
    let processRun: ProcessRunMeasurement
    let processRows: ProcessRowsMeasurement

    func n(_ quickCount: Int, _ fullCount: Int) -> Int { quick ? quickCount : fullCount }

    // MARK: Frames

    /// Highlight on/off, alternating a built-in and a plugin cell, each event through update,
    /// layout, draw, raster and composite; the reference fills the frame's damage rects. The two
    /// cells damage different areas (the built-in row is taller), so each is measured against
    /// the fills of its own damage: a p50 of both kinds' fills lies between the two. The figure
    /// is the state change to a frame, so like the events figure it runs without property-change
    /// recording; the times with recording (what `cellhost run` does for its traces) are
    /// reported beside it.
    func singleCellFrame() throws -> FigureLine {
        let plain = try singleCellSamples(recordsPropertyChanges: false)
        let recording = try singleCellSamples(recordsPropertyChanges: true)
        let kinds = [("built-in", plain.builtIn, recording.builtIn), ("plugin", plain.plugin, recording.plugin)]
        let ratios = kinds.map { $0.1.event.p99 / $0.1.reference.p50 }
        let measured = kinds.map { name, plain, recording in
            "\(name) cell p50 \(Format.time(plain.event.p50)), p99 \(Format.time(plain.event.p99)) "
                + "(damage ≤ \(Format.count(Double(plain.pixels))) px; recording property changes: p50 "
                + "\(Format.time(recording.event.p50)), p99 \(Format.time(recording.event.p99)))"
        }
        let reference = zip(kinds, ratios).map { kind, ratio in
            "\(kind.0) p50 \(Format.time(kind.1.reference.p50)), p99 \(Format.time(kind.1.reference.p99)) (\(Format.fixed(ratio, 2))×)"
        }
        let memsets = kinds.map { name, plain, _ in
            "\(name) p50 \(Format.time(plain.memset.p50)) (event p99 ÷ memset p50 \(Format.fixed(plain.event.p99 / plain.memset.p50, 1))×)"
        }
        return FigureLine(name: "single-cell state change → composited frame (in-memory engine)",
                          measured: measured.joined(separator: ", ") + "; \(plain.builtIn.event.sorted.count) events each",
                          reference: "pixman_fill of the same damage: " + reference.joined(separator: ", ")
                              + "; floor: memset of the same bytes " + memsets.joined(separator: ", "),
                          ratio: ratios.max(), target: "p99 ≤ 3× reference p50 for each cell, and ≤ 1 ms",
                          met: ratios.allSatisfy { $0 <= 3 } && kinds.allSatisfy { $0.1.event.p99 <= 1e-3 })
    }

    /// One cell's single-cell events, the fills of their damage, and the largest damage.
    private struct CellFrameSamples {
        var event: Samples, reference: Samples, memset: Samples, pixels: Int
    }

    private func singleCellSamples(recordsPropertyChanges: Bool) throws -> (builtIn: CellFrameSamples, plugin: CellFrameSamples) {
        let engine = try list.engine(items: 1000, renderer: list.compositorRenderer(), recordsPropertyChanges: recordsPropertyChanges)
        _ = try engine.start()
        // Per cell: built-in [0], plugin [1].
        var eventTimes: [[Double]] = [[], []], fillTimes: [[Double]] = [[], []], memsetTimes: [[Double]] = [[], []]
        var pixels = [0, 0]
        let count = n(120, 2000), warmUp = 8
        let clock = ContinuousClock()
        for i in 0..<(count + warmUp) {
            let event = Self.singleCellEvent(i)
            let start = clock.now
            let trace = try engine.run(event)
            let elapsed = (clock.now - start).seconds
            let rects = trace.frames.flatMap(\.damage).map {
                (x: Int($0.minX), y: Int($0.minY), width: Int($0.width), height: Int($0.height))
            }
            let reference = fill.time(rects)
            let floor = fill.timeMemset(rects)
            guard i >= warmUp else { continue }
            let cell = Self.singleCellIsPlugin(i) ? 1 : 0
            eventTimes[cell].append(elapsed)
            fillTimes[cell].append(reference)
            memsetTimes[cell].append(floor)
            pixels[cell] = max(pixels[cell], trace.frames.reduce(0) { $0 + $1.damagedPixels })
        }
        func samples(_ cell: Int) -> CellFrameSamples {
            CellFrameSamples(event: Samples(eventTimes[cell]), reference: Samples(fillTimes[cell]), memset: Samples(memsetTimes[cell]),
                             pixels: pixels[cell])
        }
        return (samples(0), samples(1))
    }

    /// Dark mode on and off: every visible cell updates, redraws and the whole viewport repaints.
    /// Without property-change recording, as the single-cell figure; with it reported beside.
    func traitRepaint() throws -> FigureLine {
        let plain = try traitSamples(recordsPropertyChanges: false)
        let recording = try traitSamples(recordsPropertyChanges: true)
        let (event, reference, memset, fullFrames, count) = plain
        let ratio = event.p50 / reference.p50
        return FigureLine(name: "full repaint after a trait change (dark mode, in-memory engine)",
                          measured: "p50 \(Format.time(event.p50)), p99 \(Format.time(event.p99)) (\(fullFrames)/\(count) frames repaint all "
                              + "\(Format.count(Double(fill.width * fill.height))) px; recording property changes: p50 \(Format.time(recording.event.p50)))",
                          reference: "pixman_fill of the whole framebuffer p50 \(Format.time(reference.p50)); floor: memset of the same bytes p50 \(Format.time(memset.p50)) (event p50 ÷ memset p50 \(Format.fixed(event.p50 / memset.p50, 2))×)",
                          ratio: ratio, target: "p50 ≤ 4×", met: ratio <= 4 && fullFrames == count)
    }

    private func traitSamples(recordsPropertyChanges: Bool) throws -> (event: Samples, reference: Samples, memset: Samples, fullFrames: Int, count: Int) {
        let engine = try list.engine(items: 1000, renderer: list.compositorRenderer(), recordsPropertyChanges: recordsPropertyChanges)
        _ = try engine.start()
        var eventTimes: [Double] = [], fillTimes: [Double] = [], memsetTimes: [Double] = []
        let count = n(10, 100), warmUp = 2
        let clock = ContinuousClock()
        var fullFrames = 0
        for i in 0..<(count + warmUp) {
            let event = BenchList.style(i % 2 == 0 ? .dark : .light, number: i + 1)
            let start = clock.now
            let trace = try engine.run(event)
            let elapsed = (clock.now - start).seconds
            let reference = fill.timeWhole()
            let floor = fill.timeWholeMemset()
            guard i >= warmUp else { continue }
            eventTimes.append(elapsed)
            fillTimes.append(reference)
            memsetTimes.append(floor)
            if trace.frames.contains(where: { $0.damagedPixels >= fill.width * fill.height }) { fullFrames += 1 }
        }
        return (Samples(eventTimes), Samples(fillTimes), Samples(memsetTimes), fullFrames, count)
    }

    // MARK: Plugins

    /// The progress sample's int64 `style` setter: direct C call; the engine's set from a stream
    /// (a `PropertyValue` through `PluginProperty.set`, a typed C call after a switch on the
    /// encoding); the typed int64 set; bare `ffi_call` through the cached cif (the libffi path
    /// `validate` compares with); ffi_prep_cif + ffi_call on every call (what the cif cache saves).
    func ffiSetter() throws -> FigureLine {
        guard let type = list.registry.type("com.cellhost.samples.progress"), let config = type.makeDefault(),
              let property = type.property(named: "style"), let setter = property.setter else {
            throw BenchError("the progress sample plugin (com.cellhost.samples.progress, property style) is not loaded")
        }
        typealias Int64Setter = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int64) -> Void
        let direct = unsafeBitCast(setter, to: Int64Setter.self)
        let handle = config.handle, descriptor = UnsafeRawPointer(property.descriptor)
        let cif = try FFISignatureCache.shared.cif(for: .setter(.int64))
        let calls = 10_000, batches = n(9, 101)
        let perCall = 1 / Double(calls)

        /// `calls` sets, each preparing its cif first (the path the cache avoids).
        func uncachedPrepareAndCall() {
            var argTypes: [UnsafeMutablePointer<ffi_type>?] = [cffi_type_pointer(), cffi_type_pointer(), cffi_type_sint64()]
            var cif = ffi_cif()
            var configArgument: OpaquePointer? = handle
            var descriptorArgument: UnsafeRawPointer? = descriptor
            var value: Int64 = 0
            withUnsafeMutablePointer(to: &configArgument) { c in
                withUnsafeMutablePointer(to: &descriptorArgument) { d in
                    withUnsafeMutablePointer(to: &value) { v in
                        var arguments: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(c), UnsafeMutableRawPointer(d),
                                                                     UnsafeMutableRawPointer(v)]
                        var ignored: UInt64 = 0
                        argTypes.withUnsafeMutableBufferPointer { types in
                            arguments.withUnsafeMutableBufferPointer { args in
                                for i in 0..<calls {
                                    v.pointee = Int64(i & 1)
                                    _ = ffi_prep_cif(&cif, cffi_default_abi(), 3, cffi_type_void(), types.baseAddress)
                                    ffi_call(&cif, setter, &ignored, args.baseAddress)
                                }
                            }
                        }
                    }
                }
            }
        }

        // The five loops run in turn, one batch each per round, so machine noise hits all of them.
        let loops: [() throws -> Void] = [
            { for i in 0..<calls { direct(handle, descriptor, Int64(i & 1)) } },
            // What the engine does once it has the property: a `PropertyValue` through the generic set.
            { for i in 0..<calls { try property.set(.int(Int64(i & 1)), on: handle) } },
            { for i in 0..<calls { try property.set(int64: Int64(i & 1), on: handle) } },
            // The floor: `ffi_call` through the same cached cif with nothing around it.
            {
                for i in 0..<calls {
                    cffi_call_setter_int64(cif, setter, UnsafeMutableRawPointer(handle), descriptor, Int64(i & 1))
                }
            },
            { uncachedPrepareAndCall() },
        ]
        var times = [[Double]](repeating: [], count: loops.count)
        let clock = ContinuousClock()
        for round in 0...batches {
            for (k, loop) in loops.enumerated() {
                let start = clock.now
                try loop()
                if round > 0 { times[k].append((clock.now - start).seconds) }  // round 0 warms up
            }
        }
        let (directSamples, cachedSamples, typedSamples, bareSamples, uncachedSamples) =
            (Samples(times[0]), Samples(times[1]), Samples(times[2]), Samples(times[3]), Samples(times[4]))
        let d = directSamples.p50 * perCall, c = cachedSamples.p50 * perCall, u = uncachedSamples.p50 * perCall
        let t = typedSamples.p50 * perCall, f = bareSamples.p50 * perCall
        let ratio = c / d
        return FigureLine(name: "property set from a stream (typed C call)",
                          measured: "p50 \(Format.time(c)) per call (typed int64 set \(Format.time(t)); libffi: ffi_call through the cached cif \(Format.time(f)), \(Format.fixed(f / d, 1))× direct; uncached ffi_prep_cif + ffi_call: \(Format.time(u)) per call, \(Format.fixed(u / d, 1))× direct)",
                          reference: "direct C call p50 \(Format.time(d))", ratio: ratio, target: "≤ 3×", met: ratio <= 3)
    }

    /// Load of the C sample from a fresh copy each time (so the loader really maps it) against a
    /// bare dlopen of another fresh copy of the same file.
    func pluginLoad() throws -> FigureLine {
        guard let source = pluginPaths.first(where: { $0.hasSuffix("libProgressMeter.so") }) else {
            throw BenchError("libProgressMeter.so was not found next to the executable")
        }
        guard let dir = makeTemporaryDirectory(prefix: "cellhost-bench") else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        defer { _ = system("rm -rf '\(dir)'") }
        let bytes = try FileCopy.read(source)
        let count = n(8, 40)
        var bareTimes: [Double] = [], loadTimes: [Double] = []
        let clock = ContinuousClock()
        for i in 0..<count {
            let barePath = "\(dir)/bare\(i).so", loadPath = "\(dir)/load\(i).so"
            try FileCopy.write(bytes, to: barePath)
            try FileCopy.write(bytes, to: loadPath)
            var start = clock.now
            guard dlopen(barePath, RTLD_NOW | RTLD_LOCAL) != nil else { throw BenchError("dlopen \(barePath) failed") }
            bareTimes.append((clock.now - start).seconds)
            start = clock.now
            _ = try PluginRegistry().load(loadPath)
            loadTimes.append((clock.now - start).seconds)
        }
        let bare = Samples(bareTimes), load = Samples(loadTimes)
        let ratio = load.p50 / bare.p50
        return FigureLine(name: "plugin load (dlopen + entry + validation)",
                          measured: "p50 \(Format.time(load.p50)), p99 \(Format.time(load.p99)) (\(count) fresh copies)",
                          reference: "bare dlopen p50 \(Format.time(bare.p50))", ratio: ratio,
                          target: "≤ 2× and ≤ 10 ms", met: ratio <= 2 && load.p50 <= 10e-3)
    }

    // MARK: Throughput

    /// Highlight on/off through update, self-sizing, layout and drawing, damage without pixels.
    /// The figure is the engine's update + layout work, so it runs without property-change
    /// recording (what a run whose sinks show no per-property changes needs); the rate with
    /// recording (what `cellhost run` does for its traces) is reported beside it. The four loops
    /// (two cells, with and without recording) run in turn, one batch each per round, so the
    /// machine's speed, which drifts within seconds, is the same for all of them. The engine runs
    /// on one thread, so its rate per second of that thread's CPU time is reported too: on a
    /// shared machine it is the steadier number (on an idle one the two agree).
    func eventsPerSecond() throws -> FigureLine {
        let loops = try [(BenchList.builtinCell, false), (BenchList.pluginCell, false),
                         (BenchList.builtinCell, true), (BenchList.pluginCell, true)].map { cell, recording in
            try Self.highlightLoop(cell, list: list, recordsPropertyChanges: recording)
        }
        let perBatch = n(200, 5000), rounds = n(3, 21)
        var wall = [[Double]](repeating: [], count: loops.count), cpu = wall
        let clock = ContinuousClock()
        for round in 0...rounds {
            for (k, (engine, events)) in loops.enumerated() {
                let (start, cpuStart) = (clock.now, Self.threadCPUSeconds())
                for i in 0..<perBatch { _ = try engine.run(events[i & 1]) }
                if round > 0 {  // round 0 warms up
                    wall[k].append((clock.now - start).seconds)
                    cpu[k].append(Self.threadCPUSeconds() - cpuStart)
                }
            }
        }
        func rate(_ k: Int) -> (wall: Double, cpu: Double) {
            (Double(perBatch) / Samples(wall[k]).p50, Double(perBatch) / Samples(cpu[k]).p50)
        }
        let (builtin, plugin, builtinRecording, pluginRecording) = (rate(0), rate(1), rate(2), rate(3))
        return FigureLine(name: "events per second, update + layout only (no raster, in-memory engine)",
                          measured: "built-in \(Format.count(builtin.wall))/s, plugin \(Format.count(plugin.wall))/s "
                              + "(per CPU second: built-in \(Format.count(builtin.cpu))/s, plugin \(Format.count(plugin.cpu))/s; "
                              + "recording property changes: built-in \(Format.count(builtinRecording.wall))/s, "
                              + "plugin \(Format.count(pluginRecording.wall))/s)",
                          reference: "—", ratio: nil, target: "≥ 200,000/s each",
                          met: builtin.wall >= 200_000 && plugin.wall >= 200_000)
    }

    /// Loops a profiler can run alone (`--loop`).
    enum ProfiledLoop: String {
        /// The events figure's loop for one cell.
        case eventsBuiltIn = "events-built-in", eventsPlugin = "events-plugin"
        /// The same, recording property changes (what `cellhost run` does for its traces).
        case eventsBuiltInRecording = "events-built-in-recording", eventsPluginRecording = "events-plugin-recording"
        /// The single-cell figure's events (built-in and plugin cell in turn, composited), without the reference fill.
        case singleCell = "single-cell"
        /// The written-list load figure's item lines, ids in no order, read by the stream parser
        /// in-process: what loading a long list spends per line, without the process around it.
        case writtenItems = "written-items"
    }

    /// Runs `loop` for `count` events after 2,000 warm-up events, untimed: what a profiler should
    /// see of a figure.
    static func run(_ loop: ProfiledLoop, count: Int, list: BenchList) throws {
        switch loop {
        case .eventsBuiltIn, .eventsPlugin, .eventsBuiltInRecording, .eventsPluginRecording:
            let builtIn = loop == .eventsBuiltIn || loop == .eventsBuiltInRecording
            let recording = loop == .eventsBuiltInRecording || loop == .eventsPluginRecording
            let (engine, events) = try highlightLoop(builtIn ? BenchList.builtinCell : BenchList.pluginCell, list: list,
                                                     recordsPropertyChanges: recording)
            for i in 0..<(2000 + count) { _ = try engine.run(events[i & 1]) }
        case .singleCell:
            let engine = try list.engine(items: 1000, renderer: list.compositorRenderer(), recordsPropertyChanges: false)
            _ = try engine.start()
            for i in 0..<(2000 + count) { _ = try engine.run(singleCellEvent(i)) }
        case .writtenItems:
            let items = 2000 + count
            var text = ProcessRowsMeasurement.scene
                + ProcessRowsMeasurement.events(0..<items) { ProcessRowsMeasurement.item($0, number: $0 * 7_919 % items) }
            var parser = EventStreamParser(source: "written-items")
            try text.withUTF8 { bytes in
                for (n, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
                    _ = try parser.parse(line: UnsafeBufferPointer(rebasing: line), lineNumber: n + 1)
                }
            }
            try parser.finish()
        }
    }

    /// The single-cell figure's `i`th event: a built-in and a plugin cell highlighted and
    /// unhighlighted in turn.
    private static func singleCellEvent(_ i: Int) -> Event {
        BenchList.highlight(singleCellIsPlugin(i) ? BenchList.pluginCell : BenchList.builtinCell, i % 2 == 0, number: i + 1)
    }

    /// Whether the single-cell figure's `i`th event is the plugin cell's.
    private static func singleCellIsPlugin(_ i: Int) -> Bool { (i / 2) % 2 == 1 }

    /// The events figure's engine (1,000 items, damage only, shown) and its two events, `cell`
    /// highlighted and unhighlighted; run them alternately.
    private static func highlightLoop(_ cell: String, list: BenchList, recordsPropertyChanges: Bool) throws -> (Engine, [Event]) {
        let engine = try list.engine(items: 1000, renderer: nil, recordsPropertyChanges: recordsPropertyChanges)
        _ = try engine.start()
        return (engine, [BenchList.highlight(cell, true, number: 1), BenchList.highlight(cell, false, number: 2)])
    }

    /// CPU time the calling thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    // MARK: Memory

    /// Each size in its own process (this executable again), so neither run's heap colours the other.
    func residentMemory() throws -> FigureLine {
        let small = try childResidentKB(items: 1000), large = try childResidentKB(items: 1_000_000)
        let ratio = Double(large) / Double(small)
        return FigureLine(name: "resident memory, 1,000,000 items vs 1,000",
                          measured: "\(Format.count(Double(large) / 1024)) MiB for 1,000,000 items (one items series)",
                          reference: "\(Format.count(Double(small) / 1024)) MiB for 1,000 items", ratio: ratio,
                          target: "≤ 1.2×", met: ratio <= 1.2)
    }

    private func childResidentKB(items: Int) throws -> Int {
        let command = "'\(executable)' --resident-child \(items)"
        guard let pipe = popen(command, "r") else { throw BenchError("cannot run \(command)") }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, 256, pipe) != nil {
            output += String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(pipe)
        guard status == 0, let kb = Int(output.split(separator: " ").last?.split(separator: "\n").first ?? "") else {
            throw BenchError("\(command) failed (status \(status)): \(output)")
        }
        return kb
    }

    /// The child's side: build the list, show it, run a few events, report VmRSS in kB.
    static func residentChild(items: Int, list: BenchList) throws -> Int {
        let engine = try list.engine(items: items, renderer: list.compositorRenderer())
        guard engine.scene.itemCount == items, engine.contentHeight >= Double(items) * 40 else {
            throw BenchError("the list holds \(engine.scene.itemCount) items over \(engine.contentHeight) pt, not \(items)")
        }
        _ = try engine.start()
        for i in 0..<20 { _ = try engine.run(BenchList.highlight(BenchList.builtinCell, i % 2 == 0, number: i + 1)) }
        return try ResidentMemory.currentKB()
    }

    // MARK: PNG frames

    /// The embedded default stream run end to end (plugins, parse, engine, compositor), with PNG
    /// frames written and without.
    func pngFrames() throws -> FigureLine {
        guard let dir = makeTemporaryDirectory(prefix: "cellhost-bench-frames") else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        defer { _ = system("rm -rf '\(dir)'") }
        let output = DiscardedOutput()
        var frames = 0
        func run(_ options: RunOptions) throws {
            let end = RunSession.run(options, output: output)
            guard end.outcome == .ok else { throw BenchError("default stream: \(end.message ?? "\(end.outcome)")") }
            frames = end.frames
        }
        /// User + system CPU time of every thread of this process so far.
        func processCPUSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let count = n(2, 15)
        var withoutTimes: [Double] = [], withTimes: [Double] = []
        var withoutCPU: [Double] = [], withCPU: [Double] = []
        let clock = ContinuousClock()
        try run(RunOptions())
        for _ in 0..<count {
            var cpu = processCPUSeconds()
            var start = clock.now
            try run(RunOptions())
            withoutTimes.append((clock.now - start).seconds)
            withoutCPU.append(processCPUSeconds() - cpu)
            cpu = processCPUSeconds()
            start = clock.now
            try run(RunOptions(framesDirectory: dir))
            withTimes.append((clock.now - start).seconds)
            withCPU.append(processCPUSeconds() - cpu)
        }
        let without = Samples(withoutTimes), with = Samples(withTimes)
        let ratio = with.p50 / without.p50
        // CPU time (all threads) shows the encoding's cost apart from how busy the machine is.
        return FigureLine(name: "default stream with PNG frames",
                          measured: "p50 \(Format.time(with.p50)) (\(frames) frames; CPU p50 \(Format.time(Samples(withCPU).p50)))",
                          reference: "without frames p50 \(Format.time(without.p50)) (CPU p50 \(Format.time(Samples(withoutCPU).p50)))",
                          ratio: ratio,
                          target: "≤ 1.3×", met: ratio <= 1.3)
    }
}

/// Run records go nowhere: the figures time the run, not a sink.
final class DiscardedOutput: RunOutput {
    func begin(event: Int, line: Int) {}
    func record(_ record: TraceRecord) {}
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
