import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// The id index keeps consecutively numbered ids as a stretch and the rest in a hash table: for
/// any mix of ids (runs of numbers, gaps, restarts, leading zeros, repeats, other prefixes) it
/// must refuse exactly the repeated ids and find every entered id at its index, whether it was
/// filled id by id (the parser) or made from the finished list (the engine).
@Suite struct ItemIDIndexTests {
    /// A random id: mostly the next number of the current run, sometimes another prefix, a
    /// jump, a number already used, a leading zero or no number at all.
    static func id(_ random: inout SeededRandom, next: inout Int) -> String {
        switch random.next(20) {
        case 0: return "x\(random.next(50))"
        case 1: next = random.next(next + 20); return "r\(next)"
        case 2: return "r0\(random.next(9))"
        case 3: return "name-\(random.next(30))"
        case 4: return "r\(random.next(next + 1))"
        default: next += 1; return "r\(next - 1)"
        }
    }

    @Test func enteringRefusesExactlyTheRepeatedIDsAndFindsEveryOne() {
        for seed in 1...40 {
            var random = SeededRandom(state: UInt64(seed))
            var index = ItemIDIndex(), list = ItemList(), seen: [String: Int] = [:]
            var next = random.next(3) == 0 ? 0 : random.next(100)
            for _ in 0..<(200 + random.next(400)) {
                let id = Self.id(&random, next: &next)
                let entered = index.enter(id, at: list.count, in: list)
                #expect(entered == (seen[id] == nil), "seed \(seed): \(id)")
                if entered {
                    seen[id] = list.count
                    list.append(ItemDescription(id: id))
                }
            }
            let rebuilt = ItemIDIndex(list)
            for (id, at) in seen {
                #expect(index.index(of: id, in: list) == at && rebuilt.index(of: id, in: list) == at, "seed \(seed): \(id)")
            }
            for absent in ["r\(next + 5)", "r-1", "x", "r", "", "y7", "r007", "name-"] where seen[absent] == nil {
                #expect(index.index(of: absent, in: list) == nil && rebuilt.index(of: absent, in: list) == nil, "seed \(seed): \(absent)")
            }
        }
    }

    /// A long generated list stays a stretch; ids written before it and after a break are
    /// found in the table, and an id of the stretch written again is refused.
    @Test func aGeneratedListAfterHandWrittenItemsIsOneStretch() {
        var index = ItemIDIndex(), list = ItemList()
        let ids = ["header", "r5", "intro"] + (0..<10_000).map { "r\($0)" } + ["r20000", "r10000", "tail"]
        for id in ids {
            let entered = index.enter(id, at: list.count, in: list)
            #expect(entered == (id != "r5" || list.count == 1), "\(id)")
            if entered { list.append(ItemDescription(id: id)) }
        }
        #expect(list.count == ids.count - 1)
        for (at, item) in list.enumerated() { #expect(index.index(of: item.id, in: list) == at) }
        #expect(!index.enter("r9999", at: list.count, in: list) && !index.enter("header", at: list.count, in: list))
    }

    /// The engine takes the parser's index of a section instead of indexing it again; every id
    /// is found where the rows the engine shows have it, in a long section of ids in no order and
    /// in an outline's section, whose rows are not its written items.
    @Test func theEngineFindsEveryItemThroughTheIndexTheParserMade() throws {
        let count = 3_000
        var lines = [#"{"scene": {"viewport": {"width": 390, "height": 300}, "scale": 1}}"#, #"{"section": {"id": "long"}}"#]
        lines += (0..<count).map { #"{"item": {"id": "r\#(($0 * 7919) % count)", "set": {"text": "Item \#($0)"}}}"# }
        lines += [#"{"section": {"id": "tree"}}"#,
                  #"{"item": {"id": "documents", "expanded": true, "children": [{"id": "reports", "children": [{"id": "q1"}]}, {"id": "notes"}]}}"#,
                  #"{"item": {"id": "r5-after", "set": {"text": "After"}}}"#]
        var parser = EventStreamParser(source: "ids.jsonl")
        for (n, line) in lines.enumerated() { _ = try parser.parse(line: line, lineNumber: n + 1) }
        let options = Engine.Options(textMeasurer: FixedAdvanceTextMeasurer())
        let given = try Engine(scene: parser.scene, catalog: ConfigurationCatalog(), options: options, itemIndexes: parser.sceneItemIndexes)
        let own = try Engine(scene: parser.scene, catalog: ConfigurationCatalog(), options: options)
        for (si, section) in given.sections.enumerated() {
            let ids = section.items.map(\.id)
            #expect(ids.count == (si == 0 ? count : 4), "rows of \(section.id): \(ids)")
            for (at, id) in ids.enumerated() {
                #expect(given.itemIndex(ofID: id, inSection: si) == at && own.itemIndex(ofID: id, inSection: si) == at, "\(section.id): \(id)")
            }
            #expect(given.itemIndex(ofID: "r\(count)", inSection: si) == nil && given.itemIndex(ofID: "q1", inSection: si) == nil)
        }
    }
}
