import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// Items written out one per line are kept by column (`ItemColumns`): the list must hold exactly
/// the items as written, stay so through inserts and deletes, and a bad value in any one of
/// them must still stop the run before its first event, naming that item's line.
@Suite struct ItemColumnsTests {
    static let header = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
        {"section": {"id": "s", "header": "Rows"}}
        """

    /// Item `k`'s fields after its id: styles cycle, values differ, and every seventh item has
    /// a shape of its own (other properties, a background, a handler, a colour value).
    static func fields(_ k: Int) -> String {
        switch k % 7 {
        case 6: #""style": "valueCell", "set": {"text": "Odd \#(k)", "textProperties.color": "systemRed", "textProperties.numberOfLines": 2}, "background": {"set": {"cornerRadius": 4}}, "handlers": [{"when": {"selected": true}, "set": {"text": "Chosen"}}]"#
        default: #""style": "\#(["cell", "subtitleCell", "valueCell"][k % 3])", "set": {"text": "Item \#(k)", "secondaryText": "\#(k % 5)"}"#
        }
    }

    /// The items as the parser describes each one on its own (an `insert` event's item, which
    /// no list stores), with the line it was written on.
    static func describedOneByOne(count: Int, firstLine: Int) throws -> [ItemDescription] {
        var stream = header + "\n{\"item\": {\"id\": \"first\"}}"
        for k in 0..<count { stream += "\n{\"insert\": {\"id\": \"r\(k)\", " + fields(k) + "}}" }
        return try EventStreamParser.parse(stream, source: "inserts").1.enumerated().map { k, event in
            guard case .insert(var item, section: _, index: _)? = event.actions.first else { throw EngineError("not an insert") }
            item.line = firstLine + k
            return item
        }
    }

    static func isColumns(_ run: ItemList.Run) -> Bool {
        if case .columns = run { true } else { false }
    }

    static func written(count: Int) -> String {
        var stream = header
        for k in 0..<count { stream += "\n{\"item\": {\"id\": \"r\(k)\", " + fields(k) + "}}" }
        return stream
    }

    @Test func writtenItemsAreStoredByColumnAndReadBackAsWritten() throws {
        let items = try EventStreamParser.parse(Self.written(count: 50), source: "written").0.sections[0].items
        let expected = try Self.describedOneByOne(count: 50, firstLine: 3)
        // Items alike but for ids and values share a run; an item with other kinds of values
        // (every seventh) starts another.
        #expect(items.runs.count == 15 && items.runs.allSatisfy(Self.isColumns))
        #expect(Array(items) == expected)
        #expect((0..<50).allSatisfy { items.id(at: $0) == "r\($0)" })
        #expect(items.firstIndex(ofID: "r37") == 37 && items.firstIndex(ofID: "r50") == nil)
    }

    @Test func insertingAndRemovingKeepsTheListEqualToAnArray() throws {
        var list = try EventStreamParser.parse(Self.written(count: 30), source: "written").0.sections[0].items
        var plain = Array(list)
        var random = SeededRandom(state: 5)
        for step in 0..<150 {
            if random.next(3) == 0 || plain.isEmpty {
                let at = random.next(plain.count + 1)
                // Fitting the columns, and not (an item with children is kept written out).
                var item = ItemDescription(id: "new\(step)", style: "valueCell",
                                           properties: [PropertyAssignment(name: "text", value: .string("N\(step)"))])
                if step % 4 == 0 { item.children = [ItemDescription(id: "child\(step)")] }
                list.insert(item, at: at)
                plain.insert(item, at: at)
            } else {
                let at = random.next(plain.count)
                #expect(list.remove(at: at) == plain.remove(at: at))
            }
            #expect(Array(list) == plain)
            if let probe = plain.indices.randomElement() {
                #expect(list.firstIndex(ofID: plain[probe].id) == probe && list.id(at: probe) == plain[probe].id)
            }
        }
    }

    @Test func aBadValueInAnyWrittenItemStopsTheRunNamingItsLine() throws {
        for bad in [0, 1, 2, 40] {
            var stream = Self.header
            for k in 0..<60 {
                let value = k == bad ? #""textProperties.numberOfLines": "many""# : #""textProperties.numberOfLines": \#(k % 3)"#
                stream += "\n{\"item\": {\"id\": \"r\(k)\", \"style\": \"cell\", \"set\": {\"text\": \"Item \(k)\", \(value)}}}"
            }
            let scene = try EventStreamParser.parse(stream, source: "bad").0
            #expect(scene.sections[0].items.runs.allSatisfy(Self.isColumns))
            do {
                _ = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
                Issue.record("item \(bad)'s bad value was not caught")
            } catch {
                #expect(error.line == 3 + bad && error.message.contains("r\(bad)"), "\(error)")
            }
        }
    }
}
