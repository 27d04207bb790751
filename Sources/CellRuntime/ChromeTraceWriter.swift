import CellIO
/// The Chrome Trace Event format (opens in Perfetto and chrome://tracing): one slice per event on
/// the "events" track with its phases nested inside (update → layout → draw → raster → composite →
/// encode, and one slice per cell inside update), a slice per frame on the "frames" track joined
/// to its event by a flow arrow, a counter of damaged pixels, and an instant mark per plugin log
/// message on the "events" track at the start of the event it was logged in (at 0 before the first
/// display; at the run's end for an event that never finished). Events are written as they come,
/// in the JSON Array Format, whose closing bracket is optional: `finish()` closes it, and the file
/// of a run killed outright still loads, with every event that was complete.
public final class ChromeTraceWriter: TraceSink {
    private let file: AtomicFile
    private var wroteFirst = false
    private var logs = LogsAwaitingTheirEvent()
    /// Where a log of an event already written goes: that event's start.
    private var lastEventStart: Double = 0
    private var buffer = ""
    private static let pid: Int64 = 1
    private static let eventsTrack: Int64 = 1
    private static let framesTrack: Int64 = 2

    public init(path: String) throws(SinkError) {
        file = try AtomicFile(path: path)
        file.write("[\n")
        emit(metadata("process_name", tid: 0, name: "cellhost run"))
        emit(metadata("thread_name", tid: ChromeTraceWriter.eventsTrack, name: "events"))
        emit(metadata("thread_name", tid: ChromeTraceWriter.framesTrack, name: "frames"))
    }

    private func metadata(_ kind: String, tid: Int64, name: String) -> JSON {
        .object([("name", .string(kind)), ("ph", .string("M")), ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(tid)),
                 ("args", .object([("name", .string(name))]))])
    }

    private func emit(_ event: JSON) {
        buffer.removeAll(keepingCapacity: true)
        if wroteFirst { buffer += ",\n" }
        wroteFirst = true
        event.write(to: &buffer)
        file.write(buffer)
    }

    private func slice(_ name: String, category: String, ts: Double, dur: Double, tid: Int64, args: [(String, JSON)] = []) -> JSON {
        var pairs: [(String, JSON)] = [
            ("name", .string(name)), ("cat", .string(category)), ("ph", .string("X")),
            ("ts", .double(ts.roundedMicros)), ("dur", .double(max(dur, 0.1).roundedMicros)),
            ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(tid)),
        ]
        if !args.isEmpty { pairs.append(("args", .object(args))) }
        return .object(pairs)
    }

    public func write(_ record: TraceRecord) {
        switch record {
        case .header(let h):
            emit(.object([("name", .string("run")), ("ph", .string("i")), ("s", .string("p")), ("ts", .int(0)),
                          ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(ChromeTraceWriter.eventsTrack)),
                          ("args", .object([("source", .string(h.source)), ("schema", .string(TraceRecord.schema))]))]))
        case .event(let e):
            writeEvent(e)
            lastEventStart = e.start
            for log in logs.release(event: e.number) { emit(logMark(log, ts: e.start)) }
        case .log(let log):
            if let now = logs.admit(log) { emit(logMark(now, ts: now.event == nil ? 0 : lastEventStart)) }
        case .end(let end):
            for log in logs.releaseAll() { emit(logMark(log, ts: lastEnd)) }
            var args: [(String, JSON)] = [("outcome", .string(end.outcome.rawValue))]
            if let m = end.message { args.append(("message", .string(m))) }
            if let f = end.failedEvent { args.append(("failedEvent", .int(Int64(f)))) }
            emit(.object([("name", .string("end: \(end.outcome.rawValue)")), ("ph", .string("i")), ("s", .string("p")),
                          ("ts", .double(lastEnd.roundedMicros)), ("pid", .int(ChromeTraceWriter.pid)),
                          ("tid", .int(ChromeTraceWriter.eventsTrack)), ("args", .object(args))]))
        }
        file.flush()
    }

    private var lastEnd: Double = 0

    /// A thread-scoped instant named "<plugin> <level>: <message>", so the track shows it whole.
    private func logMark(_ log: TraceLog, ts: Double) -> JSON {
        var args: [(String, JSON)] = [("plugin", .string(log.plugin)), ("level", .string(log.level.rawValue)),
                                      ("message", .string(log.message))]
        if let event = log.event { args.append(("event", .int(Int64(event)))) }
        if let notShown = log.notShown { args.append(("notShown", .int(Int64(notShown)))) }
        return .object([("name", .string("\(log.plugin) \(log.level.rawValue): \(log.message)")), ("cat", .string("log")),
                        ("ph", .string("i")), ("s", .string("t")), ("ts", .double(ts.roundedMicros)),
                        ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(ChromeTraceWriter.eventsTrack)),
                        ("args", .object(args))])
    }

    private func writeEvent(_ e: TraceEvent) {
        let total = e.timings.total
        var args: [(String, JSON)] = [("line", .int(Int64(e.line))), ("cells", .int(Int64(e.updates.count))),
                                      ("damagedPixels", .int(Int64(e.damagedPixels)))]
        if let note = e.note { args.append(("note", .string(note))) }
        if !e.problems.isEmpty { args.append(("problems", .array(e.problems.map(JSON.string)))) }
        emit(slice("#\(e.number) \(e.summary)", category: "event", ts: e.start, dur: total,
                   tid: ChromeTraceWriter.eventsTrack, args: args))
        var t = e.start
        for (phase, micros) in e.timings.phases where micros > 0 {
            emit(slice(phase, category: "phase", ts: t, dur: micros, tid: ChromeTraceWriter.eventsTrack))
            if phase == "update" {
                // Cells inside the update phase, back to back, scaled so they nest within it.
                let sum = e.updates.reduce(0) { $0 + $1.micros }
                let factor = sum > micros ? micros / sum : 1
                var c = t
                for u in e.updates {
                    let d = u.micros * factor
                    var cellArgs: [(String, JSON)] = [("view", .string(u.view.rawValue)), ("changes", .int(Int64(u.changes.count)))]
                    if let accessories = u.accessories { cellArgs.append(("accessories", .string(accessories))) }
                    if let swipe = u.swipe { cellArgs.append(("swipe", .string(swipe))) }
                    emit(slice(u.cell, category: "cell", ts: c, dur: d, tid: ChromeTraceWriter.eventsTrack, args: cellArgs))
                    c += d
                }
            }
            t += micros
        }
        let end = e.start + max(total, 0.1)
        lastEnd = max(lastEnd, end)
        for frame in e.frames {
            let frameStart = e.start + total - e.timings.encode
            emit(.object([("name", .string("event→frame")), ("cat", .string("flow")), ("ph", .string("s")),
                          ("id", .int(Int64(frame.index))), ("ts", .double(e.start.roundedMicros)),
                          ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(ChromeTraceWriter.eventsTrack))]))
            emit(slice("frame \(frame.index)", category: "frame", ts: frameStart, dur: max(e.timings.encode, 1),
                       tid: ChromeTraceWriter.framesTrack,
                       args: [("file", frame.file.map(JSON.string) ?? .null), ("damagedPixels", .int(Int64(frame.damagedPixels)))]
                           + (frame.sameAs.map { [("sameAs", JSON.int(Int64($0)))] } ?? [])))
            emit(.object([("name", .string("event→frame")), ("cat", .string("flow")), ("ph", .string("f")),
                          ("bp", .string("e")), ("id", .int(Int64(frame.index))), ("ts", .double(frameStart.roundedMicros)),
                          ("pid", .int(ChromeTraceWriter.pid)), ("tid", .int(ChromeTraceWriter.framesTrack))]))
        }
        emit(.object([("name", .string("damaged pixels")), ("ph", .string("C")), ("ts", .double(e.start.roundedMicros)),
                      ("pid", .int(ChromeTraceWriter.pid)), ("args", .object([("pixels", .int(Int64(e.damagedPixels)))]))]))
    }

    public func finish() throws(SinkError) {
        file.write("\n]\n")
        try file.commit()
    }
}
