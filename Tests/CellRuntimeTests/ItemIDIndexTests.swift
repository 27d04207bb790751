import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// The id index keeps consecutively numbered ids as a stretch and the rest in a hash table, and
/// checks ids against the table in batches: for any mix of ids (runs of numbers, gaps, restarts,
/// leading zeros, repeats, other prefixes) and any moments of settling, it must name exactly the
/// items whose id an earlier item has, each with such an earlier item (the first one for the
/// first repeat, whose line the parser names), and find every id not repeated at its index,
/// before and after settling, whether it was filled id by id (the parser) or made from the
/// finished list (the engine).
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

    @Test func settlingNamesExactlyTheRepeatedIDsAndEveryOtherIsFound() {
        for seed in 1...40 {
            var random = SeededRandom(state: UInt64(seed))
            var index = ItemIDIndex(), list = ItemList(), first: [String: Int] = [:], repeats: [ItemIDIndex.Repeat] = []
            var expected: [ItemIDIndex.Repeat] = []
            var next = random.next(3) == 0 ? 0 : random.next(100)
            for _ in 0..<(200 + random.next(400)) {
                let id = Self.id(&random, next: &next)
                index.enter(id, at: list.count, in: list)
                if let earlier = first[id] { expected.append(.init(index: list.count, firstIndex: earlier)) } else { first[id] = list.count }
                list.append(ItemDescription(id: id))
                if index.needsSettling || random.next(40) == 0 { repeats += index.settle(in: list) }
                if random.next(25) == 0 {
                    let (id, at) = Array(first)[random.next(first.count)]
                    #expect(index.index(of: id, in: list) == at || expected.contains { list[$0.index].id == id }, "seed \(seed): \(id)")
                }
            }
            repeats += index.settle(in: list)
            repeats.sort { $0.index < $1.index }
            #expect(repeats.map(\.index) == expected.map(\.index), "seed \(seed)")
            #expect(repeats.first == expected.first, "seed \(seed)")
            for r in repeats { #expect(r.firstIndex < r.index && list[r.firstIndex].id == list[r.index].id, "seed \(seed): \(r)") }
            let rebuilt = ItemIDIndex(list)
            for (id, at) in first where !expected.contains(where: { list[$0.index].id == id }) {
                #expect(index.index(of: id, in: list) == at && rebuilt.index(of: id, in: list) == at, "seed \(seed): \(id)")
            }
            for absent in ["r\(next + 5)", "r-1", "x", "r", "", "y7", "r007", "name-"] where first[absent] == nil {
                #expect(index.index(of: absent, in: list) == nil && rebuilt.index(of: absent, in: list) == nil, "seed \(seed): \(absent)")
            }
        }
    }

    /// A long generated list stays a stretch; ids written before it and after a break are
    /// found in the table, and an id of the stretch written again is named with the item it repeats.
    @Test func aGeneratedListAfterHandWrittenItemsIsOneStretch() {
        var index = ItemIDIndex(), list = ItemList(), repeats: [ItemIDIndex.Repeat] = []
        let ids = ["header", "r5", "intro"] + (0..<10_000).map { "r\($0)" } + ["r20000", "r10000", "tail"]
        for id in ids {
            index.enter(id, at: list.count, in: list)
            list.append(ItemDescription(id: id))
            if index.needsSettling { repeats += index.settle(in: list) }
        }
        repeats += index.settle(in: list)
        #expect(repeats == [.init(index: 8, firstIndex: 1)])
        #expect(index.count == ids.count - 1)
        for (at, item) in list.enumerated() where item.id != "r5" { #expect(index.index(of: item.id, in: list) == at) }
        for id in ["r9999", "header"] {
            index.enter(id, at: list.count, in: list)
            list.append(ItemDescription(id: id))
        }
        #expect(index.settle(in: list) == [.init(index: ids.count, firstIndex: 3 + 9_999), .init(index: ids.count + 1, firstIndex: 0)])
    }

    /// Ids in no order wait in batches for their check: one repeated after many others is
    /// still named, whether the batch it is in was settled because it was full or at the end.
    @Test func aRepeatAmongIDsInNoOrderIsNamedAtItsBatch() {
        for count in [ItemIDIndex.uncheckedLimit - 1, ItemIDIndex.uncheckedLimit, 5 * ItemIDIndex.uncheckedLimit + 3] {
            var index = ItemIDIndex(), list = ItemList(), repeats: [ItemIDIndex.Repeat] = []
            let ids = (0..<count).map { "r\($0 * 7919 % count)" } + ["r\(7919 % count)"]
            for id in ids {
                index.enter(id, at: list.count, in: list)
                list.append(ItemDescription(id: id))
                if index.needsSettling { repeats += index.settle(in: list) }
            }
            repeats += index.settle(in: list)
            #expect(repeats == [.init(index: count, firstIndex: 1)], "\(count)")
        }
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
