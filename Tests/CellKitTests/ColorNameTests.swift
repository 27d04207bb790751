import Testing
@testable import CellKit

/// A colour keeps its name as a number in `ColorNames`: the name must read back as set, and
/// equality and hashing must still follow it.
struct ColorNameTests {
    @Test func aNameReadsBackAsSetAndCanBeRemoved() {
        var color = Color(red: 0.2, green: 0.4, blue: 0.6)
        #expect(color.name == nil)
        color.name = "brandTeal"
        #expect(color.name == "brandTeal")
        color.name = "brandTeal, shaded"
        #expect(color.name == "brandTeal, shaded")
        color.name = nil
        #expect(color.name == nil)
        #expect(color == Color(red: 0.2, green: 0.4, blue: 0.6))
    }

    @Test func theSameNameGetsTheSameNumberAndOthersDiffer() {
        #expect(ColorNames.number(of: "systemBlue") == ColorNames.number(of: "systemBlue"))
        #expect(ColorNames.number(of: "systemBlue") != ColorNames.number(of: "systemRed"))
        #expect(ColorNames.name(numbered: ColorNames.number(of: "a name seen once")) == "a name seen once")
    }

    @Test func equalityAndHashingFollowTheName() {
        var a = Color(red: 1, green: 0, blue: 0), b = a
        a.name = "warning"
        #expect(a != b)
        b.name = "warning"
        #expect(a == b && a.hashValue == b.hashValue)
        b.name = "danger"
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
    }

    @Test func namedColoursKeepTheirNamesThroughResolvingAndDescriptions() {
        let resolved = Color.systemBlue.resolved(with: TraitCollection(userInterfaceStyle: .dark))
        #expect(resolved.name == "systemBlue")
        #expect(resolved.description.hasPrefix("systemBlue #"))
        #expect(Color.named["clear"]?.name == "clear")
    }

    @Test func namesAreTakenFromManyThreadsAtOnce() async {
        let numbers = await withTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { ColorNames.number(of: "concurrent \($0)") } }
            }
            return await group.reduce(into: [[UInt32]]()) { $0.append($1) }
        }
        #expect(Set(numbers.map { $0 }).count == 1)
        #expect((0..<200).allSatisfy { ColorNames.name(numbered: numbers[0][$0]) == "concurrent \($0)" })
    }
}
