import CellKit
import Testing
@testable import CellRuntime

/// Each (factory, state, kind) is computed once, and every later ask — answered from the recent
/// pairs or from the table — gets that pair's own values, never another pair's.
struct DefaultStyleLookupTests {
    private func values(_ tag: String) -> [String: PropertyValue] { ["content.text": .string(tag)] }

    @Test func eachPairIsComputedOnceAndAnsweredWithItsOwnValues() {
        let cache = PristineStyleCache()
        var computed: [String] = []
        func ask(_ factory: String, _ state: CellConfigurationState, isCell: Bool = true) -> [String: PropertyValue] {
            let tag = "\(factory) \(state.isHighlighted) \(state.customStates.keys.map(\.rawValue).sorted()) \(isCell)"
            return cache.values(key: factory, state: state, isCell: isCell) {
                computed.append(tag)
                return values(tag)
            }
        }
        let plain = CellConfigurationState(), highlighted = CellConfigurationState(isHighlighted: true)
        var urgent = plain
        urgent.customStates[ConfigurationStateCustomKey("urgent")] = .bool(true)

        // A row toggling highlight, then other factories, kinds and custom states.
        for _ in 0..<3 {
            #expect(ask("cell", plain) == values("cell false [] true"))
            #expect(ask("cell", highlighted) == values("cell true [] true"))
        }
        #expect(ask("subtitle", plain) == values("subtitle false [] true"))
        #expect(ask("cell", plain, isCell: false) == values("cell false [] false"))
        #expect(ask("cell", urgent) == values("cell false [\"urgent\"] true"))
        // More pairs than the recent ones hold, then the first again: from the table.
        for i in 0..<20 { _ = ask("factory \(i)", plain) }
        #expect(ask("cell", highlighted) == values("cell true [] true"))
        #expect(computed.count == 5 + 20)
        #expect(Set(computed).count == computed.count)
    }
}
