import CellKit
import Testing
@testable import CellRuntime

/// Increased contrast in a trace, light and dark: a cell drawn in accents (Apple publishes their
/// accessible values) is repainted with the cause named; a cell drawn only in labels and
/// backgrounds (no published accessible values) is left as it is, with no damage.
@Suite struct ContrastTraceTests {
    static func stream(_ style: UserInterfaceStyle) -> String {
        """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 320, "height": 200}, "traits": {"style": "\(style.rawValue)"}}}
        {"item": {"id": "accent", "set": {"text": "Teal", "textProperties.color": "systemTeal", "image": {"symbol": "star.fill"}, "imageProperties.tintColor": "systemMint"}}}
        {"item": {"id": "labels", "set": {"text": "Label", "secondaryText": "secondary label"}}}
        {"traits": {"contrast": "high"}}
        {"traits": {"contrast": "normal"}}
        """
    }

    func run(style: UserInterfaceStyle) throws -> [TraceEvent] {
        let (parsed, events) = try EventStreamParser.parse(Self.stream(style), source: "contrast.jsonl")
        let engine = try Engine(scene: parsed, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        var records = [try engine.start()]
        for e in events { records.append(try engine.run(e)) }
        return records
    }

    @Test(arguments: UserInterfaceStyle.allCases)
    func accentsRepaintAndLabelsStay(style: UserInterfaceStyle) throws {
        let records = try run(style: style)
        for (record, contrast) in [(records[1], "high"), (records[2], "normal")] {
            #expect(record.summary == "traits: \(contrast) contrast")
            let accent = try #require(record.updates.first { $0.cell == "accent" })
            #expect(accent.repaint == "colours re-resolved for \(contrast) contrast", "\(style): \(String(describing: accent.repaint))")
            #expect(accent.damage != nil)
            let labels = try #require(record.updates.first { $0.cell == "labels" })
            #expect(labels.repaint == nil && labels.damage == nil, "\(style): labels have no accessible values to take")
        }
    }
}
