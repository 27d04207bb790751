import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// Released rows' own states live side by side with an index by item: whatever mix of keeping,
/// taking, inserting and removing items, each item must give back exactly the state kept for it,
/// as a dictionary by item index would.
@Suite struct ReleasedRowsTests {
    static func state(_ tag: Int) -> ReleasedRowState {
        ReleasedRowState(flags: CellConfigurationState(), traced: nil, causes: ["cause \(tag)"])
    }

    @Test func keptStatesFollowTheirItemsLikeADictionary() {
        for seed in 1...30 {
            var random = SeededRandom(state: UInt64(seed))
            var rows = ReleasedRows(), model: [Int: Int] = [:], items = 200, tag = 0
            for step in 0..<2_000 {
                let i = random.next(items)
                switch random.next(10) {
                case 0...4:
                    tag += 1
                    rows.keep(Self.state(tag), at: i)
                    model[i] = tag
                case 5...7:
                    #expect(rows.takeState(at: i)?.causes == model.removeValue(forKey: i).map { ["cause \($0)"] }, "seed \(seed) step \(step)")
                case 8:
                    let n = 1 + random.next(5)
                    rows.insert(count: n, at: i)
                    model = Dictionary(uniqueKeysWithValues: model.map { ($0.key >= i ? $0.key + n : $0.key, $0.value) })
                    items += n
                default:
                    let n = min(1 + random.next(5), items - i)
                    rows.remove(count: n, at: i)
                    model = Dictionary(uniqueKeysWithValues: model.compactMap { key, value in
                        key < i ? (key, value) : key < i + n ? nil : (key - n, value)
                    })
                    items -= n
                }
                #expect(rows.stateCount == model.count, "seed \(seed) step \(step)")
            }
            for i in 0..<items {
                #expect(rows.hasKept(at: i) == (model[i] != nil), "seed \(seed): item \(i)")
                #expect(rows.hasKept(in: i..<(i + 3)) == (i..<(i + 3)).contains { model[$0] != nil })
                #expect(rows.takeState(at: i)?.causes == model[i].map { ["cause \($0)"] }, "seed \(seed): item \(i)")
            }
            #expect(rows.stateCount == 0)
        }
    }
}
