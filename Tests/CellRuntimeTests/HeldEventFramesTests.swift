import CellKit
import CellProcess
import Glibc
import Testing
@testable import CellRuntime

/// A worker keeps the frames of events that run no plugin code back, to send several events'
/// in one write; plugin code never runs while any are held.
@Suite struct HeldEventFramesTests {
    static let scene = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
        {"section": {"id": "s"}}
        {"item": {"id": "apple", "set": {"text": "Apple"}}}
        {"item": {"id": "pear", "set": {"text": "Pear"}}}
        """

    func engine(_ lines: String) throws -> (Engine, [Event]) {
        let (scene, events) = try EventStreamParser.parse(lines, source: "test.jsonl")
        var catalog = ConfigurationCatalog()
        catalog.add(StandInPluginProvider())
        return (try Engine(scene: scene, catalog: catalog, options: .init(textMeasurer: FixedAdvanceTextMeasurer())), events)
    }

    @Test func builtInContentRunsNoPluginCodeUntilAnItemOfAPluginTypeIsInserted() throws {
        let (engine, events) = try engine(Self.scene + """

            {"cell": "apple", "highlighted": true}
            {"insert": {"id": "plum", "set": {"text": "Plum"}}}
            {"insert": {"id": "fake", "type": "com.example.stand-in"}}
            {"cell": "apple", "highlighted": false}
            """)
        _ = try engine.start()
        var mayRun: [Bool] = []
        for event in events {
            mayRun.append(engine.pluginCodeMayRun(during: event))
            _ = try engine.run(event)
        }
        #expect(mayRun == [false, false, true, true])
    }

    @Test func aSceneWithAnItemOfAPluginTypeMayRunPluginCodeInEveryEvent() throws {
        let (engine, events) = try engine(Self.scene + """

            {"item": {"id": "fake", "type": "com.example.stand-in"}}
            {"cell": "apple", "highlighted": true}
            """)
        _ = try engine.start()
        #expect(engine.pluginCodeMayRun(during: events[0]))
    }

    @Test func heldEventsGoOutInOrderBeforeOneThatMayRunPluginCode() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let output = ChannelOutput(channel: WorkerChannel(descriptor: fds[1], token: ChannelFrame.randomToken(), heldSeconds: 3600))
        func available() -> Int {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            return max(0, buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) })
        }
        let (_, events) = try engine(Self.scene + """

            {"cell": "apple", "highlighted": true}
            {"cell": "pear", "highlighted": true}
            {"cell": "apple", "highlighted": false}
            """)
        for event in events.prefix(2) {
            output.begin(event, pluginCodeMayRun: false)
            output.alive()
            output.record(.event(TraceEvent(number: event.number, line: event.line, summary: "", start: 0, updates: [], frames: [],
                                            timings: PhaseTimings(), problems: [])))
        }
        #expect(available() == 0, "frames of events without plugin code were written at once")
        output.begin(events[2], pluginCodeMayRun: true)
        #expect(available() > 0)
        output.flushRecords()
    }
}

/// A type no built-in provider makes, standing for a plugin's.
private struct StandInPluginProvider: ConfigurationProvider {
    var typeIdentifiers: [String] { ["com.example.stand-in"] }
    func makeConfiguration(type: String, style: String?, appearance: ListEnvironment) throws(ConfigurationProviderError)
        -> any ContentConfiguration {
        ListContentConfiguration(style: .cell)
    }
}
