import Testing
@testable import CellKit

/// At the elevated level, dark-mode system backgrounds step up to lighter grays; light mode and
/// every other colour are unchanged.
@Suite struct ElevatedLevelTests {
    static let darkElevated = TraitCollection(userInterfaceStyle: .dark, userInterfaceLevel: .elevated)

    @Test func darkBackgroundsAreLighterWhenElevated() {
        let dark = TraitCollection(userInterfaceStyle: .dark)
        let expected: [(Color, String, String)] = [
            (.systemBackground, "#000000", "#1C1C1E"), (.secondarySystemBackground, "#1C1C1E", "#2C2C2E"),
            (.tertiarySystemBackground, "#2C2C2E", "#3A3A3C"), (.systemGroupedBackground, "#000000", "#1C1C1E"),
            (.secondarySystemGroupedBackground, "#1C1C1E", "#2C2C2E"), (.tertiarySystemGroupedBackground, "#2C2C2E", "#3A3A3C"),
        ]
        for (color, base, elevated) in expected {
            #expect(color.resolved(with: dark).hexString == base, "\(color)")
            #expect(color.resolved(with: Self.darkElevated).hexString == elevated, "\(color)")
            #expect(color.resolved(with: TraitCollection(userInterfaceLevel: .elevated)) == color.resolved(with: .default),
                    "light mode has no elevated variant")
        }
        for color in [Color.label, .systemBlue, .separator, .systemGray5] {
            #expect(color.resolved(with: Self.darkElevated) == color.resolved(with: dark))
        }
    }
}
