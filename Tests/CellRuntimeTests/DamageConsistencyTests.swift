import CellKit
import Testing
@testable import CellRuntime

/// The engine tells the damage tracker whether a redrawn row's recording changed (it compares
/// the two recordings once, for its trace); a renderer that compares the lists itself must see
/// exactly the same damage and frames.
@Suite struct DamageConsistencyTests {
    /// A damage tracker reached only through the comparing `setLayer`: what the engine knows about
    /// a recording goes through the protocol's default, which drops it.
    final class ComparingTracker: FrameRenderer {
        let tracker: DamageTracker
        init(viewport: Size, scale: Double) { tracker = DamageTracker(viewport: viewport, scale: scale) }
        func setLayer(_ id: Int, frame: Rect, content: DisplayList) { tracker.setLayer(id, frame: frame, content: content) }
        func removeLayer(_ id: Int) { tracker.removeLayer(id) }
        func renderFrame() -> RenderedFrame { tracker.renderFrame() }
        func writeFrame(to path: String) -> Double { 0 }
        func finish() -> String? { nil }
    }

    /// The shortcut stream with an animated event, an event that changes nothing drawn, and a
    /// background set back to what it was.
    static let stream = TraceConsistencyTests.stream + """

        {"animate": {"duration": 0.2, "frames": 4}, "cell": "apple", "selected": true}
        {"cell": "apple", "setNeedsUpdateConfiguration": true}
        {"cell": "kiwi", "highlighted": false}
        {"cell": "kiwi", "background": {"backgroundColor": "systemYellow"}}
        {"cell": "kiwi", "background": {"backgroundColor": "systemYellow"}}
        """

    func run(comparing: Bool) throws -> [TraceEvent] {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "damage.jsonl")
        let renderer: any FrameRenderer = comparing
            ? ComparingTracker(viewport: scene.viewport, scale: scene.scale)
            : DamageTracker(viewport: scene.viewport, scale: scene.scale)
        let options = Engine.Options(textMeasurer: FixedAdvanceTextMeasurer(), renderer: renderer)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: options)
        var records = [try engine.start()]
        for e in events { records.append(try engine.run(e)) }
        return records.map(TraceConsistencyTests.withoutTimes)
    }

    @Test func toldChangesDamageWhatComparingTheListsDamages() throws {
        let told = try run(comparing: false)
        let compared = try run(comparing: true)
        #expect(told.count == compared.count)
        for (a, b) in zip(told, compared) { #expect(a == b, "event \(a.number): \(a.summary)") }
        #expect(told.contains { $0.frames.count > 1 }, "the animated event renders intermediate frames")
        #expect(told.contains { $0.frames.isEmpty }, "an event that changes nothing drawn renders no frame")
    }

    /// A tracker showing `old` in layer 1 at `frame`, its first frame rendered, and the recording
    /// that replaces it: their union is x 0…100, y 10…40 in the viewport.
    static func trackedLayer() -> (tracker: DamageTracker, frame: Rect, old: DisplayList, new: DisplayList) {
        let tracker = DamageTracker(viewport: Size(width: 100, height: 100), scale: 1)
        let frame = Rect(x: 0, y: 10, width: 100, height: 40)
        let old = DisplayList([.fill(Rect(x: 0, y: 0, width: 100, height: 20), .white)])
        let new = DisplayList([.fill(Rect(x: 0, y: 10, width: 50, height: 20), .black)])
        tracker.setLayer(1, frame: frame, content: old)
        _ = tracker.renderFrame()
        return (tracker, frame, old, new)
    }

    @Test func aToldChangeDamagesTheUnionOfBothRecordings() {
        let (tracker, frame, old, new) = Self.trackedLayer()
        tracker.setLayer(1, frame: frame, content: DisplayList(old.commands), contentChanged: false)
        #expect(tracker.renderFrame().damagedPixels == 0, "told unchanged: no damage")
        tracker.setLayer(1, frame: frame, content: new, contentChanged: true)
        #expect(tracker.renderFrame().damage == [Rect(x: 0, y: 10, width: 100, height: 30)])
    }

    /// The engine patches a row's recording in place after the renderer let go of it.
    @Test func aReleasedLayerKeepsItsBoundsAndTakesTheNextContent() {
        let (tracker, frame, _, new) = Self.trackedLayer()
        tracker.releaseContent(ofLayer: 1)
        tracker.setLayer(1, frame: frame, content: new, contentChanged: true)
        #expect(tracker.renderFrame().damage == [Rect(x: 0, y: 10, width: 100, height: 30)], "the released list's bounds count")
        tracker.releaseContent(ofLayer: 1)
        tracker.setLayer(1, frame: frame, content: new, contentChanged: false)
        #expect(tracker.renderFrame().damagedPixels == 0)
        tracker.setLayer(1, frame: frame, content: DisplayList(new.commands))
        #expect(tracker.renderFrame().damagedPixels == 0, "told unchanged, the layer took the list it compares with next")
        tracker.releaseContent(ofLayer: 7)
        #expect(tracker.renderFrame().damagedPixels == 0, "releasing an unknown layer does nothing")
    }
}
