import Testing
@testable import CellKit

/// Increased contrast resolves the system grays to Apple's accessible values, in light and dark.
@Suite struct GrayContrastTests {
    static func hex(_ c: Color) -> UInt32 {
        UInt32((c.red * 255).rounded()) << 16 | UInt32((c.green * 255).rounded()) << 8 | UInt32((c.blue * 255).rounded())
    }

    static func resolved(_ c: Color, _ style: UserInterfaceStyle, _ contrast: AccessibilityContrast) -> UInt32 {
        hex(c.resolved(with: TraitCollection(userInterfaceStyle: style, accessibilityContrast: contrast)))
    }

    @Test func everyGrayHasItsAccessibleVariant() {
        let expected: [(Color, normalLight: UInt32, highLight: UInt32, normalDark: UInt32, highDark: UInt32)] = [
            (.systemGray, 0x8E8E93, 0x6C6C70, 0x8E8E93, 0xAEAEB2),
            (.systemGray2, 0xAEAEB2, 0x8E8E93, 0x636366, 0x7C7C80),
            (.systemGray3, 0xC7C7CC, 0xAEAEB2, 0x48484A, 0x545456),
            (.systemGray4, 0xD1D1D6, 0xBCBCC0, 0x3A3A3C, 0x444446),
            (.systemGray5, 0xE5E5EA, 0xD8D8DC, 0x2C2C2E, 0x363638),
            (.systemGray6, 0xF2F2F7, 0xEBEBF0, 0x1C1C1E, 0x242426),
        ]
        for (color, normalLight, highLight, normalDark, highDark) in expected {
            #expect(Self.resolved(color, .light, .normal) == normalLight, "\(color)")
            #expect(Self.resolved(color, .light, .high) == highLight, "\(color)")
            #expect(Self.resolved(color, .dark, .normal) == normalDark, "\(color)")
            #expect(Self.resolved(color, .dark, .high) == highDark, "\(color)")
        }
    }

    @Test func higherContrastMovesEveryGrayAwayFromItsBackground() {
        for color in [Color.systemGray, .systemGray2, .systemGray3, .systemGray4, .systemGray5, .systemGray6] {
            #expect(Self.resolved(color, .light, .high) < Self.resolved(color, .light, .normal), "darker on white: \(color)")
            #expect(Self.resolved(color, .dark, .high) > Self.resolved(color, .dark, .normal), "lighter on black: \(color)")
        }
    }
}
