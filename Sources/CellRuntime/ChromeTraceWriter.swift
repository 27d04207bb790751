import CellIO
/// The Chrome Trace Event format (opens in Perfetto and chrome://tracing): one slice per event on
/// the "events" track with its phases nested inside (update → layout → draw → raster → composite →
/// encode, and one slice per cell inside update), a slice per frame on the "frames" track joined
/// to its event by a flow arrow, a counter of damaged pixels, and an instant mark per plugin log
/// message on the "events" track at the start of the event it was logged in (at 0 before the first
/// display; at the run's end for an event that never finished).
///
/// Written in place as the records come (`InPlaceFile`), in the JSON Array Format, whose closing
/// bracket the Trace Event Format document leaves optional for exactly this case: "When provided
/// as a string to the importer the ] at the end of the JSON Array Format is optional. […] This is
/// to support tracing systems that can not cleanly finish writing the trace. For example, when
/// tracing the exit of a program." (Trace Event Format, "JSON Array Format",
/// https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU). So the file
/// holds the opening bracket from the start and each record's trace events with the comma before
/// them, never after: killed outright, it ends after a complete trace event and loads with every
/// event that was handed over. `finish()` closes the array on every clean or failed end.
public final class ChromeTraceWriter: TraceSink {
    private let file: InPlaceFile
    private var wroteFirst = false
    private var logs = LogsAwaitingTheirEvent()
    /// Where a log of an event already written goes: that event's start.
    private var lastEventStart: Double = 0
    private var lastEnd: Double = 0
    /// Where the trace events are encoded: the file's batch, which takes only whole records.
    private let out: JSONByteWriter
    private static let eventsTrack = 1
    private static let framesTrack = 2

    public init(path: String) throws(SinkError) {
        file = try InPlaceFile(path: path)
        out = file.out
        out.raw("[\n")
        metadata("process_name", tid: 0, name: "cellhost run")
        metadata("thread_name", tid: ChromeTraceWriter.eventsTrack, name: "events")
        metadata("thread_name", tid: ChromeTraceWriter.framesTrack, name: "frames")
        // On disk at once: from the start the file is an array a viewer loads.
        file.flush()
    }

    /// Starts the next trace event of the array: `{"name":"` and whatever `name` writes (inside
    /// the quotes, escaped) and `"`.
    private func begin(name: () -> Void) {
        if wroteFirst { out.raw(",\n") }
        wroteFirst = true
        out.raw(#"{"name":""#)
        name()
        out.byte(UInt8(ascii: "\""))
    }

    private func begin(name: String) { begin { out.stringContent(name) } }

    /// `,"pid":1,"tid":<tid>`: the process and the track.
    private func track(_ tid: Int) {
        out.raw(#","pid":1,"tid":"#)
        out.int(tid)
    }

    private func metadata(_ kind: StaticString, tid: Int, name: String) {
        begin { out.raw(kind) }
        out.raw(#","ph":"M""#)
        track(tid)
        out.raw(#","args":{"name":"#)
        out.string(name)
        out.raw("}}")
    }

    /// A complete slice up to its arguments: the caller ends it with `}` or `,"args":{…}}`.
    private func slice(_ name: () -> Void, category: StaticString, ts: Double, dur: Double, tid: Int) {
        begin(name: name)
        out.raw(#","cat":""#); out.raw(category)
        out.raw(#"","ph":"X","ts":"#); out.number(ts.roundedMicros)
        out.raw(#","dur":"#); out.number(max(dur, 0.1).roundedMicros)
        track(tid)
    }

    public func write(_ record: TraceRecord) {
        switch record {
        case .header(let h):
            begin(name: "run")
            out.raw(#","ph":"i","s":"p","ts":0"#)
            track(ChromeTraceWriter.eventsTrack)
            out.raw(#","args":{"source":"#); out.string(h.source)
            out.raw(#","schema":"#); out.string(TraceRecord.schema)
            out.raw("}}")
        case .event(let e):
            writeEvent(e)
            lastEventStart = e.start
            for log in logs.release(event: e.number) { logMark(log, ts: e.start) }
        case .log(let log):
            if let now = logs.admit(log) { logMark(now, ts: now.event == nil ? 0 : lastEventStart) }
        case .end(let end):
            for log in logs.releaseAll() { logMark(log, ts: lastEnd) }
            begin { out.raw("end: "); out.stringContent(end.outcome.rawValue) }
            out.raw(#","ph":"i","s":"p","ts":"#); out.number(lastEnd.roundedMicros)
            track(ChromeTraceWriter.eventsTrack)
            out.raw(#","args":{"outcome":"#); out.string(end.outcome.rawValue)
            if let m = end.message { out.raw(#","message":"#); out.string(m) }
            if let f = end.failedEvent { out.raw(#","failedEvent":"#); out.int(f) }
            out.raw("}}")
        }
        file.recordEnded()
    }

    /// A thread-scoped instant named "<plugin> <level>: <message>", so the track shows it whole.
    private func logMark(_ log: TraceLog, ts: Double) {
        begin {
            out.stringContent(log.plugin); out.byte(UInt8(ascii: " ")); out.stringContent(log.level.rawValue)
            out.raw(": "); out.stringContent(log.message)
        }
        out.raw(#","cat":"log","ph":"i","s":"t","ts":"#); out.number(ts.roundedMicros)
        track(ChromeTraceWriter.eventsTrack)
        out.raw(#","args":{"plugin":"#); out.string(log.plugin)
        out.raw(#","level":"#); out.string(log.level.rawValue)
        out.raw(#","message":"#); out.string(log.message)
        if let event = log.event { out.raw(#","event":"#); out.int(event) }
        if let notShown = log.notShown { out.raw(#","notShown":"#); out.int(notShown) }
        out.raw("}}")
    }

    private func writeEvent(_ e: TraceEvent) {
        let total = e.timings.total
        slice({ out.byte(UInt8(ascii: "#")); out.int64(Int64(e.number)); out.byte(UInt8(ascii: " ")); out.stringContent(e.summary) },
              category: "event", ts: e.start, dur: total, tid: ChromeTraceWriter.eventsTrack)
        out.raw(#","args":{"line":"#); out.int(e.line)
        out.raw(#","cells":"#); out.int(e.updates.count)
        out.raw(#","damagedPixels":"#); out.int(e.damagedPixels)
        if let note = e.note { out.raw(#","note":"#); out.string(note) }
        if !e.problems.isEmpty { out.raw(#","problems":"#); out.strings(e.problems) }
        out.raw("}}")
        var t = e.start
        phase("update", e.timings.update, at: &t) { start, micros in
            // Cells inside the update phase, back to back, scaled so they nest within it.
            let sum = e.updates.reduce(0) { $0 + $1.micros }
            let factor = sum > micros ? micros / sum : 1
            var c = start
            for u in e.updates {
                let d = u.micros * factor
                slice({ out.stringContent(u.cell) }, category: "cell", ts: c, dur: d, tid: ChromeTraceWriter.eventsTrack)
                out.raw(#","args":{"view":"#); out.string(u.view.rawValue)
                out.raw(#","changes":"#); out.int(u.changes.count)
                if let accessories = u.accessories { out.raw(#","accessories":"#); out.string(accessories) }
                if let swipe = u.swipe { out.raw(#","swipe":"#); out.string(swipe) }
                out.raw("}}")
                c += d
            }
        }
        phase("layout", e.timings.layout, at: &t)
        phase("draw", e.timings.draw, at: &t)
        phase("raster", e.timings.raster, at: &t)
        phase("composite", e.timings.composite, at: &t)
        phase("encode", e.timings.encode, at: &t)
        let end = e.start + max(total, 0.1)
        lastEnd = max(lastEnd, end)
        for frame in e.frames {
            let frameStart = e.start + total - e.timings.encode
            begin(name: "event→frame")
            out.raw(#","cat":"flow","ph":"s","id":"#); out.int(frame.index)
            out.raw(#","ts":"#); out.number(e.start.roundedMicros)
            track(ChromeTraceWriter.eventsTrack)
            out.byte(UInt8(ascii: "}"))
            slice({ out.raw("frame "); out.int(frame.index) }, category: "frame", ts: frameStart, dur: max(e.timings.encode, 1),
                  tid: ChromeTraceWriter.framesTrack)
            out.raw(#","args":{"file":"#); if let file = frame.file { out.string(file) } else { out.null() }
            out.raw(#","damagedPixels":"#); out.int(frame.damagedPixels)
            if let sameAs = frame.sameAs { out.raw(#","sameAs":"#); out.int(sameAs) }
            out.raw("}}")
            begin(name: "event→frame")
            out.raw(#","cat":"flow","ph":"f","bp":"e","id":"#); out.int(frame.index)
            out.raw(#","ts":"#); out.number(frameStart.roundedMicros)
            track(ChromeTraceWriter.framesTrack)
            out.byte(UInt8(ascii: "}"))
        }
        begin(name: "damaged pixels")
        out.raw(#","ph":"C","ts":"#); out.number(e.start.roundedMicros)
        out.raw(#","pid":1,"args":{"pixels":"#); out.int(e.damagedPixels)
        out.raw("}}")
    }

    /// The slice of one phase that took time, starting at `t`, which moves past it; `inside`
    /// writes what nests in it.
    private func phase(_ name: StaticString, _ micros: Double, at t: inout Double,
                       inside: (_ start: Double, _ micros: Double) -> Void = { _, _ in }) {
        guard micros > 0 else { return }
        slice({ out.raw(name) }, category: "phase", ts: t, dur: micros, tid: ChromeTraceWriter.eventsTrack)
        out.byte(UInt8(ascii: "}"))
        inside(t, micros)
        t += micros
    }

    public func flush() { file.flush() }

    public func finish() throws(SinkError) {
        out.raw("\n]\n")
        try file.close()
    }
}
