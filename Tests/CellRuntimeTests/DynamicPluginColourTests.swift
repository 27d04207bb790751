import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// A plugin cell whose tint a stream set by name follows the appearance as a built-in cell's
/// colour does: the trace says the locked tint was re-resolved, and the frames draw it.
@Suite struct DynamicPluginColourTests {
    static let stream = """
        {"scene": {"appearance": "plain", "viewport": {"width": 200, "height": 120}, "scale": 1}}
        {"section": {"id": "meters"}}
        {"item": {"id": "named", "type": "com.cellhost.samples.progress", "set": {"progress": 1, "tint": "systemOrange"}}}
        {"item": {"id": "fixed", "type": "com.cellhost.samples.progress", "set": {"progress": 1, "tint": "#336699"}}}
        {"capture": "light"}
        {"traits": {"style": "dark"}}
        {"cell": "named", "selected": true}
        {"traits": {"style": "light"}}
        """

    struct Run {
        var events: [TraceEvent]
        var frames: [RasterImage]
    }

    func run() throws -> Run {
        let dir = temporaryDirectory()
        let path = dir + "/colours.jsonl"
        writeFile(Self.stream + "\n", to: path)
        let collector = ExampleStreamTests.Collector()
        let recorder = TraceRecorder(sink: collector)
        let end = RunSession.run(RunOptions(events: path, plugins: [BuiltProducts.samplePlugin("ProgressMeter")],
                                            framesDirectory: dir + "/frames"), output: recorder)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        let events = collector.records.compactMap { record -> TraceEvent? in
            if case .event(let e) = record { return e } else { return nil }
        }
        let frames = try recorder.frameFiles.map { try RasterImage.decodePNG(path: dir + "/frames/" + $0) }
        return Run(events: events, frames: frames)
    }

    static func tintChanges(_ e: TraceEvent, cell: String) -> [PropertyChangeTrace] {
        e.updates.filter { $0.cell == cell }.flatMap(\.changes).filter { $0.property == "tint" }
    }

    /// Pixels exactly of `hex` (the progress bars fill most of their length with the tint).
    static func count(_ hex: String, in image: RasterImage) -> Int {
        let c = Color(hex: hex)!
        let (r, g, b) = (UInt8((c.red * 255).rounded()), UInt8((c.green * 255).rounded()), UInt8((c.blue * 255).rounded()))
        var n = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                if p.red == r && p.green == g && p.blue == b && p.alpha == 255 { n += 1 }
            }
        }
        return n
    }

    @Test func aNamedTintIsReResolvedForEachAppearanceAndDrawnSo() throws {
        let run = try run()
        let byNote = Dictionary(run.events.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        // Events: 0 start, 1 capture, 2 dark, 3 select in dark, 4 light.
        let toDark = try #require(byNote[2]), selected = try #require(byNote[3]), toLight = try #require(byNote[4])

        #expect(Self.tintChanges(toDark, cell: "named") == [PropertyChangeTrace(
            configuration: "content", property: "tint", old: "systemOrange #FF9500", new: "systemOrange #FF9F0A",
            reason: .reResolved, cause: "dark")])
        #expect(Self.tintChanges(toLight, cell: "named") == [PropertyChangeTrace(
            configuration: "content", property: "tint", old: "systemOrange #FF9F0A", new: "systemOrange #FF9500",
            reason: .reResolved, cause: "light")])
        // Selection in dark mode would restyle an unlocked tint: the locked one stays dark orange.
        #expect(Self.tintChanges(selected, cell: "named").allSatisfy { $0.reason == .locked && $0.new == "systemOrange #FF9F0A" })
        // A tint set as an RGBA is not touched by the appearance: kept, and reported locked as before.
        for e in [toDark, toLight] {
            #expect(Self.tintChanges(e, cell: "fixed").map { "\($0.reason) \($0.old ?? "nil") \($0.new)" } == ["locked #336699 #336699"])
        }

        var table = ""
        let writer = TraceTableWriter(colors: false) { table += $0 }
        writer.write(.event(toDark))
        #expect(table.contains("tint  systemOrange #FF9500 → systemOrange #FF9F0A  (locked: customised; re-resolved for dark)"), "\(table)")

        // The frames draw what the plugin was handed: light orange, then dark orange; the RGBA tint in both.
        let light = try #require(run.frames.first { Self.count("#FF9500", in: $0) > 0 })
        let darkFrame = try #require(run.frames.last { Self.count("#FF9F0A", in: $0) > 0 }, "a dark frame draws the dark orange")
        #expect(Self.count("#FF9F0A", in: light) == 0)
        #expect(Self.count("#FF9500", in: darkFrame) == 0)
        #expect(Self.count("#336699", in: light) > 0 && Self.count("#336699", in: darkFrame) > 0)
    }
}
