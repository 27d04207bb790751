import CellKit
import Testing
@testable import CellRuntime

/// The two forms of a stream's `configurationUpdateHandler`: modify sets on the stored
/// configuration (what it sets stays locked, as in UIKit), fresh builds from the data each pass
/// (the default look returns with the state); the trace names the form.
@Suite struct UpdateHandlerFormTests {
    static func stream(form: String) -> String {
        """
        {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 200}}}
        {"item": {"id": "row", "set": {"text": "Row", "image": "star.fill"}, "handler": {"form": "\(form)", "rules": [{"when": {"highlighted": true}, "set": {"textProperties.color": "systemRed"}, "background": {"backgroundColor": "systemYellow"}}]}}}
        {"item": {"id": "other", "set": {"text": "Other"}}}
        {"cell": "row", "highlighted": true}
        {"cell": "row", "highlighted": false}
        {"cell": "row", "disabled": true}
        {"cell": "row", "set": {"secondaryText": "Set by an event"}}
        {"cell": "row", "disabled": false}
        """
    }

    func run(form: String) throws -> [TraceEvent] {
        let (scene, events) = try EventStreamParser.parse(Self.stream(form: form), source: "handler.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        var records = [try engine.start()]
        for e in events { records.append(try engine.run(e)) }
        return records
    }

    func change(_ records: [TraceEvent], event: Int, _ property: String, in configuration: String = "content")
        -> PropertyChangeTrace? {
        records[event].updates.first { $0.cell == "row" }?.changes
            .first { $0.configuration == configuration && $0.property == property }
    }

    @Test func modifyKeepsWhatItSetLockedAfterTheStateReturns() throws {
        let records = try run(form: "modify")
        let set = try #require(change(records, event: 1, "textProperties.color"))
        #expect(set.reason == .setByHook && set.new.hasPrefix("systemRed"))
        // Unhighlighted: the red stays, and disabling cannot dim it.
        #expect(change(records, event: 2, "textProperties.color") == nil)
        let disabled = try #require(change(records, event: 3, "textProperties.color"))
        #expect(disabled.reason == .locked && disabled.new.hasPrefix("systemRed"))
        #expect(records[1].updates.first { $0.cell == "row" }?.handler == .modify)
    }

    @Test func freshGivesTheDefaultLookBackWhenTheStateReturns() throws {
        let records = try run(form: "fresh")
        let set = try #require(change(records, event: 1, "textProperties.color"))
        #expect(set.reason == .setByHook && set.new.hasPrefix("systemRed"))
        let background = try #require(change(records, event: 1, "backgroundColor", in: "background"))
        #expect(background.reason == .setByHook && background.new.hasPrefix("systemYellow"))

        let back = try #require(change(records, event: 2, "textProperties.color"))
        #expect(back.reason == .restyled && back.new.hasPrefix("label"), "\(back)")
        #expect(back.cause == "not highlighted")
        let backgroundBack = try #require(change(records, event: 2, "backgroundColor", in: "background"))
        #expect(backgroundBack.reason == .restyled && !backgroundBack.new.hasPrefix("systemYellow"))

        let dimmed = try #require(change(records, event: 3, "textProperties.color"))
        #expect(dimmed.reason == .restyled && dimmed.new.hasPrefix("tertiaryLabel"), "\(dimmed)")
        #expect(records[2].updates.first { $0.cell == "row" }?.handler == .fresh)
        #expect(records[0].updates.first { $0.cell == "other" }?.handler == nil, "a cell without a handler names no form")
    }

    @Test func freshKeepsWhatAnEventSetOnTheItem() throws {
        let records = try run(form: "fresh")
        let set = try #require(change(records, event: 4, "secondaryText"))
        #expect(set.reason == .setByEvent && set.new.contains("Set by an event"))
        // Re-enabled: a fresh pass starts from the data, which the event's value is now part of.
        let row = try #require(records[5].updates.first { $0.cell == "row" })
        #expect(row.changes.first { $0.property == "secondaryText" } == nil, "the event's text is neither lost nor reset")
        #expect(row.changes.contains { $0.property == "textProperties.color" && $0.reason == .restyled })
    }

    @Test func freshAndModifyDrawAlikeWhileTheRuleHoldsAndDifferOnceItEnds() throws {
        func drawnTextColours(form: String) throws -> [String] {
            let records = try run(form: form)
            return records.map { r in r.updates.first { $0.cell == "row" }?.changes
                .first { $0.property == "textProperties.color" }?.new ?? "-" }
        }
        let modify = try drawnTextColours(form: "modify"), fresh = try drawnTextColours(form: "fresh")
        #expect(modify[1] == fresh[1])
        #expect(modify[3] != fresh[3])
    }

    @Test func theStreamMustNameTheFormAndCannotGiveBothKeys() {
        let scene = #"{"scene": {"appearance": "plain"}}"#
        func error(_ item: String) -> String {
            do { _ = try EventStreamParser.parse(scene + "\n" + item, source: "bad.jsonl"); return "" }
            catch { return "\(error)" }
        }
        let noForm = error(#"{"item": {"id": "a", "handler": {"rules": []}}}"#)
        #expect(noForm.contains("2") && noForm.contains("needs \"form\""), "\(noForm)")
        let badForm = error(#"{"item": {"id": "a", "handler": {"form": "fersh"}}}"#)
        #expect(badForm.contains("\"fresh\""), "\(badForm)")
        let both = error(#"{"item": {"id": "a", "handlers": [{"set": {"text": "x"}}], "handler": {"form": "fresh"}}}"#)
        #expect(both.contains("not both"), "\(both)")
    }
}
