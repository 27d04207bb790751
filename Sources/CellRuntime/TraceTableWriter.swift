import CellIO
import CellKit

/// The trace for people, on the terminal: one line per cell update (event, cell, state change,
/// what changed, view reused/replaced, size, damage, time), then one indented line per property
/// that changed or stayed locked, saying why. Plugin log messages are shown with the event they
/// were logged in, under its note and problems; those of an event that never finished come just
/// before the line saying why the run stopped. Colour only on a terminal and without `NO_COLOR`.
public final class TraceTableWriter: TraceSink {
    private let output: (String) -> Void
    private let style: TerminalStyle
    private var wroteColumns = false
    private var logs = LogsAwaitingTheirEvent()

    /// `output` receives whole lines with their newline.
    public init(colors: Bool, output: @escaping (String) -> Void) {
        self.output = output
        self.style = TerminalStyle(enabled: colors)
    }

    static let columns: [(String, Int)] = [("#", 4), ("cell", 16), ("state", 38), ("changed", 22), ("view", 10),
                                           ("size", 11), ("damage", 11), ("time", 0)]

    private func row(_ cells: [String]) -> String {
        var s = ""
        for (i, cell) in cells.enumerated() {
            let width = TraceTableWriter.columns[i].1
            s += cell
            if width > 0 {
                let visible = TerminalStyle.visibleCount(cell)
                s += String(repeating: " ", count: max(1, width - visible))
            }
        }
        return s
    }

    public func write(_ record: TraceRecord) {
        switch record {
        case .header(let h):
            output(style.bold("cellhost run") + " \(h.source): \(h.appearance) list, \(h.viewport) pt @\(formatPoints(h.scale))x, "
                + "\(h.itemCount) item\(h.itemCount == 1 ? "" : "s"); traits: \(h.traits.joined(separator: ", "))\n")
            for p in h.plugins { output("plugin " + p + "\n") }
        case .event(let e):
            writeEvent(e)
        case .log(let log):
            if let now = logs.admit(log) { writeLog(now) }
        case .end(let end):
            logs.releaseAll().forEach(writeLog)
            var s = "\n"
            switch end.outcome {
            case .ok: s += style.green("done") + ": \(end.events) event\(end.events == 1 ? "" : "s"), \(end.frames) frame\(end.frames == 1 ? "" : "s")"
            default:
                s += style.red(end.outcome.rawValue)
                if let f = end.failedEvent { s += " at event #\(f)" }
                if let m = end.message { s += ": " + m }
            }
            let t = end.timings
            if t.total > 0 {
                s += style.dim("; " + t.phases.filter { $0.1 > 0 }.map { "\($0.0) \(Self.millis($0.1))" }.joined(separator: ", "))
            }
            output(s + "\n")
        }
    }

    private func writeEvent(_ e: TraceEvent) {
        if !wroteColumns {
            wroteColumns = true
            output(style.dim(row(TraceTableWriter.columns.map(\.0))) + "\n")
        }
        let number = style.bold("\(e.number)")
        if let note = e.note { output(style.dim("   # \(note)") + "\n") }
        for problem in e.problems { output("    " + style.red("! ") + problem + "\n") }
        for change in e.outline { output("    " + style.dim("outline: ") + change.text + "\n") }
        logs.release(event: e.number).forEach(writeLog)
        if e.updates.isEmpty {
            let frame = e.frames.isEmpty ? "no frame" : "frame \(e.frames.map { f in String(f.index) + (f.sameAs.map { " (same as \($0))" } ?? "") }.joined(separator: ","))"
            output(row([number, style.dim("—"), e.summary, "", "", "", "\(e.damagedPixels) px", Self.millis(e.timings.total)])
                + style.dim("  \(frame)") + "\n")
            return
        }
        for u in e.updates {
            let before = Self.stateWords(u.stateBefore), after = Self.stateWords(u.stateAfter)
            let state = before == after ? "\(after) (\(u.cause))" : "\(before) → \(after)"
            let restyled = u.changes.filter { $0.reason == .restyled }.count
            let locked = u.changes.filter { $0.reason == .locked || $0.reason == .reResolved }.count
            let set = u.changes.count - restyled - locked
            var changed: [String] = []
            if restyled > 0 { changed.append(style.green("\(restyled) restyled")) }
            if set > 0 { changed.append(style.cyan("\(set) set")) }
            if locked > 0 { changed.append(style.yellow("\(locked) locked")) }
            let view: String
            switch u.view {
            case .replaced: view = style.magenta("replaced")
            case .created: view = style.cyan("created")
            default: view = u.view.rawValue
            }
            let damage = u.damage.map { "\($0.size)" } ?? style.dim("—")
            output(row([number, u.cell, state, changed.isEmpty ? style.dim("nothing") : changed.joined(separator: ", "),
                        view, "\(u.size)", damage, Self.millis(u.micros)]) + "\n")
            if let repaint = u.repaint { output("      " + style.green("repainted: " + repaint) + "\n") }
            if let accessories = u.accessories { output("      " + style.cyan("accessories " + accessories) + "\n") }
            if let swipe = u.swipe { output("      " + style.cyan("swipe: " + swipe) + "\n") }
            if let separators = u.separators { output("      " + style.dim("separators: ") + separators + "\n") }
            if let image = u.image { output("      " + style.dim("image: ") + image + "\n") }
            let nameWidth = min(40, (u.changes.map { Self.propertyName($0).count }.max() ?? 0) + 2)
            for c in u.changes {
                let name = Self.propertyName(c)
                var line = "      " + name + String(repeating: " ", count: max(1, nameWidth - name.count))
                let old = Self.value(c.old ?? "nil", of: c), new = Self.value(c.new, of: c)
                switch c.reason {
                case .locked:
                    line += "\(new)  " + style.yellow("(locked: customised" + (c.cause.map { ", kept through \($0)" } ?? "") + ")")
                case .reResolved:
                    line += "\(old) → \(new)  " + style.yellow("(locked: customised; re-resolved for \(c.cause ?? "new traits"))")
                case .restyled:
                    line += "\(old) → \(new)  " + style.green("(restyled" + (c.cause.map { ": \($0)" } ?? "") + ")")
                case .setByEvent:
                    line += "\(old) → \(new)  " + style.cyan("(set by event)")
                case .setByHook:
                    line += "\(old) → \(new)  " + style.cyan(u.handler == .fresh ? "(set by fresh update handler)" : "(set by update handler)")
                }
                output(line + "\n")
            }
        }
    }

    /// "log <plugin> <level>: <message>", a message of several lines indented under its first.
    private func writeLog(_ log: TraceLog) {
        let level: String
        switch log.level {
        case .error: level = style.red(log.level.rawValue)
        case .warning: level = style.yellow(log.level.rawValue)
        case .info, .debug: level = style.dim(log.level.rawValue)
        }
        let text = log.message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n        ")
        output("    " + style.dim("log ") + log.plugin + " " + level + ": " + text + "\n")
    }

    /// The table is written as records arrive; nothing is left to complete.
    public func finish() throws(SinkError) {}

    /// A value as a reader needs it: a nil that shows the tint colour says so.
    static func value(_ value: String, of c: PropertyChangeTrace) -> String {
        c.nilIsTint && value == "nil" ? "nil (tint)" : value
    }

    static func propertyName(_ c: PropertyChangeTrace) -> String {
        c.configuration == "background" ? "background." + c.property : c.property
    }

    static func stateWords(_ flags: [String]) -> String { flags.isEmpty ? "normal" : flags.joined(separator: "+") }

    static func millis(_ micros: Double) -> String {
        micros >= 100_000 ? "\(formatPoints((micros / 1000).rounded())) ms" : "\(formatPoints(micros / 1000)) ms"
    }
}

/// ANSI styling that turns itself off (no colour on pipes and files, or with NO_COLOR).
struct TerminalStyle {
    let enabled: Bool

    private func wrap(_ code: String, _ s: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap("1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func red(_ s: String) -> String { wrap("31", s) }
    func green(_ s: String) -> String { wrap("32", s) }
    func yellow(_ s: String) -> String { wrap("33", s) }
    func magenta(_ s: String) -> String { wrap("35", s) }
    func cyan(_ s: String) -> String { wrap("36", s) }

    /// Characters a terminal shows, escape sequences not counted.
    static func visibleCount(_ s: String) -> Int {
        var count = 0
        var inEscape = false
        for u in s.unicodeScalars {
            if inEscape { if u == "m" { inEscape = false }; continue }
            if u == "\u{1B}" { inEscape = true; continue }
            count += 1
        }
        return count
    }
}
