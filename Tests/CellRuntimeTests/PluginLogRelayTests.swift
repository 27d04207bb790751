import CellIO
import CellKit
import CellTestSupport
@testable import CellPlugins
import Glibc
import Synchronization
import Testing
@testable import CellRuntime

/// How plugin log messages become a run's records: after the header, before their event's record,
/// bounded per plugin and event with one report of the rest, and only the run's own messages.
@Suite struct PluginLogRelayTests {
    final class Output: RunOutput {
        var records: [TraceRecord] = []
        let ownsProcess: Bool
        init(ownsProcess: Bool = false) { self.ownsProcess = ownsProcess }
        func begin(event: Int, line: Int) {}
        func record(_ record: TraceRecord) { records.append(record) }
        var logs: [TraceLog] { records.compactMap { if case .log(let l) = $0 { l } else { nil } } }
    }

    static func message(_ text: String, from plugin: String = "com.test.logger") -> PluginLogMessage {
        PluginLogMessage(pluginID: plugin, level: .info, text: text)
    }

    static func event(_ number: Int) -> TraceRecord { .event(TraceEvent(number: number, line: number, summary: "e")) }

    /// Runs `body` on a thread of its own and waits for it.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_join(thread, nil)
    }

    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    @Test func messagesWaitForTheHeaderAndComeBeforeTheirEvent() {
        let output = Output()
        let relay = PluginLogRelay(output: output)
        relay.relayingLogs {
            PluginHostEnvironment.log(Self.message("loading"))
            #expect(output.records.isEmpty, "nothing goes out before the header")
            relay.record(.header(SampleTrace.header))
            relay.begin(event: 0, line: 0)
            PluginHostEnvironment.log(Self.message("first display"))
            relay.record(Self.event(0))
        }
        #expect(output.records == [
            .header(SampleTrace.header),
            .log(TraceLog(plugin: "com.test.logger", level: .info, message: "loading", event: nil)),
            .log(TraceLog(plugin: "com.test.logger", level: .info, message: "first display", event: 0)),
            Self.event(0),
        ])
    }

    @Test func aRunThatEndsWithoutAHeaderStillSendsItsMessages() {
        let output = Output()
        let relay = PluginLogRelay(output: output)
        relay.relayingLogs { PluginHostEnvironment.log(Self.message("refusing to initialise")) }
        #expect(output.logs.map(\.message) == ["refusing to initialise"])
    }

    @Test func aFloodIsCutAtTheLimitAndReportedOncePerPluginAndEvent() {
        let limit = PluginLogMessage.Limits.messagesPerEvent
        let output = Output()
        let relay = PluginLogRelay(output: output)
        relay.relayingLogs {
            relay.record(.header(SampleTrace.header))
            relay.begin(event: 1, line: 1)
            for i in 1...(limit + 3) { PluginHostEnvironment.log(Self.message("a\(i)", from: "com.test.a")) }
            PluginHostEnvironment.log(Self.message("b1", from: "com.test.b"))
            for i in (limit + 4)...(limit + 5) { PluginHostEnvironment.log(Self.message("a\(i)", from: "com.test.a")) }
            relay.record(Self.event(1))
            relay.begin(event: 2, line: 2)
            PluginHostEnvironment.log(Self.message("a again", from: "com.test.a"))
            relay.record(Self.event(2))
        }
        let first = output.logs.filter { $0.event == 1 }
        #expect(first.filter { $0.plugin == "com.test.a" && $0.notShown == nil }.map(\.message) == (1...limit).map { "a\($0)" })
        #expect(first.filter { $0.plugin == "com.test.b" }.map(\.message) == ["b1"], "another plugin has its own allowance")
        let reports = output.logs.filter { $0.notShown != nil }
        #expect(reports == [TraceLog(plugin: "com.test.a", level: .warning,
                                     message: "com.test.a logged 5 more messages in event 1; not shown "
                                         + "(a run shows at most \(limit) per plugin and event)",
                                     event: 1, notShown: 5)])
        #expect(output.logs.filter { $0.event == 2 }.map(\.message) == ["a again"], "the allowance is per event")
    }

    @Test func onlyTheRunsThreadReachesItUnlessItOwnsTheProcess() {
        let output = Output()
        let relay = PluginLogRelay(output: output)
        let elsewhere = Mutex<[PluginLogMessage]>([])
        relay.relayingLogs {
            relay.record(.header(SampleTrace.header))
            // Another thread without a handler of its own logs to the process's handler, not here.
            Self.onAnotherThread {
                PluginHostEnvironment.withLogHandler(onThisThread: { m in elsewhere.withLock { $0.append(m) } }) {
                    PluginHostEnvironment.log(Self.message("another run's message"))
                }
            }
            PluginHostEnvironment.log(Self.message("this run's message"))
        }
        #expect(output.logs.map(\.message) == ["this run's message"])
        #expect(elsewhere.withLock { $0.map(\.text) } == ["another run's message"])
    }

    @Test func aMessageFromAnotherThreadWaitsForTheRunsNextRecord() {
        let output = Output(ownsProcess: true)
        let relay = PluginLogRelay(output: output)
        relay.record(.header(SampleTrace.header))
        relay.begin(event: 3, line: 3)
        let sendable = UncheckedRelay(relay: relay)
        Self.onAnotherThread { sendable.relay.receive(Self.message("from a plugin's thread")) }
        #expect(output.logs.isEmpty, "the output is used only on the run's thread")
        relay.record(Self.event(3))
        #expect(output.records.suffix(2) == [
            .log(TraceLog(plugin: "com.test.logger", level: .info, message: "from a plugin's thread", event: 3)),
            Self.event(3),
        ])
    }

    struct UncheckedRelay: @unchecked Sendable { let relay: PluginLogRelay }

    @Test func aLongMessageIsCutAtACharacterBoundaryWithinTheLimit() {
        let limit = PluginLogMessage.Limits.messageBytes
        let text = "x" + String(repeating: "é", count: limit)
        let read = text.withCString { PluginLogMessage.text(of: $0) }
        #expect(read == "x" + String(repeating: "é", count: (limit - 1) / 2) + "…")
        #expect(read.utf8.count - "…".utf8.count <= limit)
        let exact = String(repeating: "a", count: limit)
        #expect(exact.withCString { PluginLogMessage.text(of: $0) } == exact, "a message at the limit is whole")
    }

    @Test func logRecordsParseBack() throws {
        for log in [TraceLog(plugin: "com.test.a", level: .error, message: "m", event: nil),
                    TraceLog(plugin: "com.test.a", level: .warning, message: "n", event: 4, notShown: 7)] {
            #expect(try TraceRecord.decode(line: TraceRecord.log(log).json.serialized) == .log(log))
        }
    }

    /// The schema and the run documentation state the limits the code applies.
    @Test func theSchemaAndTheDocsStateTheLimits() throws {
        let schema = try #require(readTextFile(BuiltProducts.packageRoot + "/SDK/schema/trace.schema.json"))
        #expect(schema.contains("within \(PluginLogMessage.Limits.messageBytes) UTF-8 bytes"))
        #expect(schema.contains("at most \(PluginLogMessage.Limits.messagesPerEvent) messages per plugin per event"))
        let docs = try #require(readTextFile(BuiltProducts.packageRoot + "/SDK/docs/inspect-run-validate.md"))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(docs.contains("cut at \(PluginLogMessage.Limits.messageBytes) UTF-8 bytes"))
        #expect(docs.contains("at most \(PluginLogMessage.Limits.messagesPerEvent) messages per plugin per event"))
    }
}
