import CellKit
import Testing
@testable import CellRuntime

/// Trait events for a regular width, the elevated level and Bold Text: what each restyles or
/// repaints, and the words the trace gives as the cause.
@Suite struct TraitEventTraceTests {
    /// Runs one row through the first display and then each trait line; the trace of each line.
    func run(scene: String, traitLines: [String]) throws -> (Engine, [TraceEvent]) {
        let stream = ([scene, #"{"item": {"id": "row", "set": {"text": "Row"}}}"#] + traitLines).joined(separator: "\n")
        let (parsed, events) = try EventStreamParser.parse(stream, source: "traits.jsonl")
        let engine = try Engine(scene: parsed, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        var records = [try engine.start()]
        for e in events { records.append(try engine.run(e)) }
        return (engine, records)
    }

    func change(_ record: TraceEvent, _ property: String) -> PropertyChangeTrace? {
        record.updates.first { $0.cell == "row" }?.changes.first { $0.property == property }
    }

    @Test func aRegularWidthRestylesTheMargins() throws {
        let (_, records) = try run(scene: #"{"scene": {"appearance": "plain", "viewport": {"width": 600, "height": 200}}}"#,
                                   traitLines: [#"{"traits": {"horizontalSizeClass": "regular"}}"#,
                                                #"{"traits": {"horizontalSizeClass": "compact"}}"#])
        let widened = try #require(change(records[1], "directionalLayoutMargins"))
        #expect(widened.reason == .restyled && widened.cause == "regular width" && widened.new.contains("20"), "\(widened)")
        let narrowed = try #require(change(records[2], "directionalLayoutMargins"))
        #expect(narrowed.reason == .restyled && narrowed.cause == "compact width")
        #expect(records[0].updates.first?.size == records[1].updates.first?.size, "the row keeps its height")
    }

    @Test func anElevatedLevelRepaintsBackgrounds() throws {
        let (engine, records) = try run(
            scene: #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 200}, "traits": {"style": "dark"}}}"#,
            traitLines: [#"{"traits": {"level": "elevated"}}"#])
        #expect(records[1].summary == "traits: elevated level")
        let row = try #require(records[1].updates.first { $0.cell == "row" })
        #expect(row.repaint?.contains("colours re-resolved for elevated level") == true, "\(String(describing: row.repaint))")
        #expect(records[1].damagedPixels > 0)
        #expect(engine.traceHeader(source: "s", plugins: []).traits.contains("elevated"))
    }

    @Test func boldTextRestylesFonts() throws {
        let (engine, records) = try run(scene: #"{"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 200}}}"#,
                                        traitLines: [#"{"traits": {"legibilityWeight": "bold"}}"#])
        #expect(records[1].summary == "traits: bold text")
        let font = try #require(change(records[1], "textProperties.font"))
        #expect(font.reason == .restyled && font.cause == "bold text" && font.new.contains("semibold"), "\(font)")
        #expect(engine.traceHeader(source: "s", plugins: []).traits.contains("bold text"))
    }

    @Test func aPadIdiomMovesInsetGroupedRowsToTheReadableWidth() throws {
        let scene = #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 900, "height": 200}, "traits": {"horizontalSizeClass": "regular"}}}"#
        let (engine, records) = try run(scene: scene, traitLines: [#"{"traits": {"idiom": "pad"}}"#,
                                                                   #"{"traits": {"idiom": "phone"}}"#])
        #expect(records[1].summary == "traits: pad")
        let phoneRowWidth: Double = 900 - 2 * 20
        #expect(records[0].updates.first?.size.width == phoneRowWidth)
        #expect(records[1].updates.first?.size.width == ListAppearance.readableContentWidth, "\(records[1].updates)")
        #expect(records[2].updates.first?.size.width == phoneRowWidth, "back to the phone's inset")
        #expect(records[1].damagedPixels > 0)
        #expect(engine.traceHeader(source: "s", plugins: []).traits.contains("pad") == false, "a phone again")
    }

    @Test func aPadSceneIsNamedInTheHeaderAndOtherAppearancesKeepTheirWidth() throws {
        let (engine, records) = try run(
            scene: #"{"scene": {"appearance": "plain", "viewport": {"width": 900, "height": 200}, "traits": {"idiom": "pad", "horizontalSizeClass": "regular"}}}"#,
            traitLines: [])
        #expect(engine.traceHeader(source: "s", plugins: []).traits.contains("pad"))
        #expect(records[0].updates.first?.size.width == 900)
    }

    @Test func unknownTraitValuesNameTheChoices() {
        for (line, choices) in [(#"{"traits": {"level": "bogus"}}"#, #""base", "elevated""#),
                                (#"{"traits": {"idiom": "watch"}}"#, #""phone", "pad""#),
                                (#"{"traits": {"legibilityWeight": "heavy"}}"#, #""regular", "bold""#)] {
            do {
                _ = try EventStreamParser.parse(#"{"scene": {"appearance": "plain"}}"# + "\n" + line, source: "bad.jsonl")
                Issue.record("\(line) is refused")
            } catch {
                #expect("\(error)".contains(choices), "\(error)")
            }
        }
    }
}
