import CellIO
import CellKit
import CellRuntime

/// The trace half of a snapshot: what each event since the previous capture did to each cell,
/// as JSON Lines a reviewer reads in a pull request's diff. One line per event, per cell update
/// (cause, state before → after, view reused / replaced, size) and per property change (old,
/// new, reason). Nothing that varies between runs or machines of the same code goes in: no
/// timings, no damage, no event numbers or stream lines (an event added elsewhere in the
/// stream would shift every one of them).
public enum TraceSnapshot {
    /// The snapshot of `events` (in order), each line ending in a newline.
    public static func text(of events: some Sequence<TraceEvent>) -> String {
        var text = ""
        for event in events {
            var head: [(String, JSON)] = [("event", .string(event.summary))]
            if let note = event.note { head.append(("note", .string(note))) }
            if !event.problems.isEmpty { head.append(("problems", .array(event.problems.map(JSON.string)))) }
            text += JSON.object(head).serialized + "\n"
            for update in event.updates {
                var cell: [(String, JSON)] = [("cell", .string(update.cell)), ("type", .string(update.type)),
                                              ("cause", .string(update.cause))]
                let before = words(update.stateBefore), after = words(update.stateAfter)
                cell.append(("state", .string(before == after ? after : before + " → " + after)))
                cell.append(("view", .string(update.view.rawValue)))
                cell.append(("size", .string(update.size.description)))
                if let repaint = update.repaint { cell.append(("repaint", .string(repaint))) }
                text += JSON.object(cell).serialized + "\n"
                for change in update.changes {
                    var line: [(String, JSON)] = [("cell", .string(update.cell)),
                                                  ("property", .string(change.configuration + "." + change.property))]
                    if let old = change.old { line.append(("old", .string(old))) }
                    line.append(("new", .string(change.new)))
                    line.append(("reason", .string(change.reason.rawValue)))
                    if let cause = change.cause { line.append(("because", .string(cause))) }
                    text += JSON.object(line).serialized + "\n"
                }
            }
        }
        return text
    }

    private static func words(_ state: [String]) -> String { state.isEmpty ? "normal" : state.joined(separator: "+") }
}

/// Keeps a run's event records for the trace snapshots, and its end.
final class TraceCollector: TraceSink {
    private(set) var events: [TraceEvent] = []
    private(set) var end: TraceEnd?

    func write(_ record: TraceRecord) {
        switch record {
        case .event(let e): events.append(e)
        case .end(let e): end = e
        case .header, .log: break
        }
    }

    func finish() throws(SinkError) {}
}
