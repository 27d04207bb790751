import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// A row's first update record says how big its image is and what is reserved for it: a
/// symbol as wide as its glyph's advance, in the standard reservation unless the stream sets
/// `reservedLayoutSize`, whose width 0 reserves only the symbol's own width.
@Suite struct ImageTraceTests {
    static let stream = """
        {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 300}}}
        {"item": {"id": "wide", "set": {"text": "Wide", "image": {"symbol": "ellipsis"}}}}
        {"item": {"id": "own", "set": {"text": "Own", "image": {"symbol": "ellipsis"}, "imageProperties.reservedLayoutSize": {"width": 0, "height": 0}}}}
        {"item": {"id": "plain", "set": {"text": "No image"}}}
        {"cell": "wide", "selected": true}
        """

    @Test func theFirstUpdateOfARowSaysItsImageSize() throws {
        let (scene, _) = try EventStreamParser.parse(Self.stream, source: "s.jsonl")
        let engine = try TextEngine()
        let symbol = engine.symbolSize(named: "ellipsis", pointSize: 17)
        #expect(symbol.width > symbol.height)
        let run = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: engine))
        let first = try run.start()
        #expect(first.updates.first { $0.cell == "wide" }?.image == "symbol:ellipsis \(symbol), reserved 29×29")
        #expect(first.updates.first { $0.cell == "own" }?.image == "symbol:ellipsis \(symbol), reserved \(symbol)")
        #expect(first.updates.first { $0.cell == "plain" }?.image == nil)
    }
}
