import Testing
import CellKit

/// Layers found by id through their slots, as a dictionary would find them.
@Suite struct LayerSlotsTests {
    final class Layer {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func slotsAnswerAsADictionaryWould() {
        var slots = LayerSlots<Layer>()
        var reference: [Int: Layer] = [:]
        // Sets, replacements and removals out of order, past the end and of absent ids.
        let steps: [(id: Int, name: String?)] = [(3, "a"), (0, "b"), (7, "c"), (3, "d"), (5, nil), (0, nil), (12, nil), (1, "e")]
        for step in steps {
            let layer = step.name.map(Layer.init)
            slots[step.id] = layer
            reference[step.id] = layer
        }
        for id in -1...13 { #expect(slots[id] === reference[id], "id \(id)") }
        #expect(slots.removeValue(forKey: 7)?.name == "c")
        #expect(slots[7] == nil)
        #expect(slots.removeValue(forKey: 7) == nil)
        #expect(slots.removeValue(forKey: 40) == nil)
    }
}
