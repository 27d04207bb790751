import CellPlugins
import Glibc
import Synchronization

/// Puts the messages plugins log during a run into the run's records, in both modes: it wraps
/// the run's output (the sinks in-process, the channel in a worker), so a message reaches the
/// table and both traces wherever the plugin runs.
///
/// It receives the messages logged on the run's thread, and those of every thread when the
/// output owns its process (a worker).
///
/// Invariants: a log record comes before the record of the event it was logged in, and after the
/// header when there is one (messages logged while loading wait for it); the wrapped output is
/// used only on the run's thread — a message logged on another thread waits for the run's next
/// record; at most `PluginLogMessage.Limits.messagesPerEvent` messages per plugin per event pass,
/// and the rest are counted and reported by one record when the event ends.
final class PluginLogRelay: RunOutput, @unchecked Sendable {
    private let output: any RunOutput
    private let runThread = pthread_self()

    private struct State {
        /// The event running; nil before the first display.
        var event: Int?
        /// Whether log records may go out: after the header, or once the run has ended without one.
        var open = false
        /// Log records waiting for the header or for the run's thread.
        var waiting: [TraceLog] = []
        /// Messages shown this event, by plugin.
        var shown: [String: Int] = [:]
        /// Messages left out this event and not reported yet, by plugin, in the order floods began.
        var notShown: [(plugin: String, count: Int)] = []
        /// The last message logged in this event, for the message of a run that stops at it.
        var last: TraceLog?

        /// The waiting records, when they may go out.
        mutating func takeWaiting() -> [TraceLog] {
            guard open else { return [] }
            defer { waiting.removeAll() }
            return waiting
        }

        /// At the end of an event: the waiting records, then one report per plugin that flooded.
        mutating func takeReady() -> [TraceLog] {
            guard open else { return [] }
            var ready = takeWaiting()
            for (plugin, count) in notShown {
                let when = event.map { "in event \($0)" } ?? "before the first display"
                ready.append(TraceLog(
                    plugin: plugin, level: .warning,
                    message: "\(plugin) logged \(count) more message\(count == 1 ? "" : "s") \(when); not shown "
                        + "(a run shows at most \(PluginLogMessage.Limits.messagesPerEvent) per plugin and event)",
                    event: event, notShown: count))
            }
            notShown.removeAll()
            return ready
        }
    }
    private let state = Mutex(State())

    init(output: any RunOutput) { self.output = output }

    /// Runs `body` with this relay receiving the messages plugins log on this thread (on every
    /// thread when the output owns the process), then sends what is still waiting.
    func relayingLogs<Result>(_ body: () -> Result) -> Result {
        let handler: @Sendable (PluginLogMessage) -> Void = { [self] in receive($0) }
        let previous = output.ownsProcess ? PluginHostEnvironment.setLogHandler(handler) : nil
        let result = PluginHostEnvironment.withLogHandler(onThisThread: handler, body)
        if let previous { PluginHostEnvironment.setLogHandler(previous) }
        flush(opening: true)
        return result
    }

    /// The last message logged in the running event (or while loading), quoted for a message
    /// saying why the run stopped there.
    var lastMessageQuote: String? {
        state.withLock { $0.last }.map { "\($0.plugin) logged: \"\($0.message)\"" }
    }

    func receive(_ message: PluginLogMessage) {
        let onRunThread = pthread_equal(pthread_self(), runThread) != 0
        let ready: [TraceLog] = state.withLock { s in
            let shown = s.shown[message.pluginID, default: 0]
            guard shown < PluginLogMessage.Limits.messagesPerEvent else {
                if let i = s.notShown.firstIndex(where: { $0.plugin == message.pluginID }) {
                    s.notShown[i].count += 1
                } else {
                    s.notShown.append((message.pluginID, 1))
                }
                return []
            }
            s.shown[message.pluginID] = shown + 1
            let log = TraceLog(plugin: message.pluginID, level: TraceLog.Level(message.level), message: message.text,
                               event: s.event)
            s.last = log
            s.waiting.append(log)
            return onRunThread ? s.takeWaiting() : []
        }
        for log in ready { output.record(.log(log)) }
    }

    private func flush(opening: Bool = false) {
        let ready = state.withLock { s in
            if opening { s.open = true }
            return s.takeReady()
        }
        for log in ready { output.record(.log(log)) }
    }

    func begin(event: Int, line: Int) {
        startEvent(event)
        output.begin(event: event, line: line)
    }

    func begin(_ event: Event) {
        startEvent(event.number)
        output.begin(event)
    }

    func begin(_ event: Event, pluginCodeMayRun: Bool) {
        startEvent(event.number)
        output.begin(event, pluginCodeMayRun: pluginCodeMayRun)
    }

    /// Messages logged so far go out before the event begins; later ones count against it.
    private func startEvent(_ event: Int) {
        flush()
        state.withLock { s in
            s.event = event
            s.shown.removeAll()
            s.last = nil
        }
    }

    func announce(_ phase: RunPhase) { output.announce(phase) }

    func flushRecords() { output.flushRecords() }

    func record(_ record: TraceRecord) {
        switch record {
        case .header:
            output.record(record)
            flush(opening: true)
        case .event, .end:
            flush()
            output.record(record)
        case .log:
            output.record(record)
        }
    }

    func alive() { output.alive() }
}

extension TraceLog.Level {
    init(_ level: PluginLogMessage.Level) {
        switch level {
        case .debug: self = .debug
        case .info: self = .info
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
