import Glibc
import Testing
@testable import CellKit

/// Increased contrast for every system colour: the accents take Apple's accessible values in
/// light and dark (the HIG's iOS table), and the colours Apple publishes no accessible values
/// for (labels, separators, fills, backgrounds, placeholder text) stay as they are.
@Suite struct SystemColorContrastTests {
    static func resolved(_ c: Color, _ style: UserInterfaceStyle, _ contrast: AccessibilityContrast,
                         _ level: UserInterfaceLevel = .base) -> RGBA {
        c.resolved(with: TraitCollection(userInterfaceStyle: style, accessibilityContrast: contrast, userInterfaceLevel: level)).light
    }

    static func hex(_ c: RGBA) -> UInt32 {
        UInt32((c.red * 255).rounded()) << 16 | UInt32((c.green * 255).rounded()) << 8 | UInt32((c.blue * 255).rounded())
    }

    /// Name, default light, default dark, accessible light, accessible dark.
    static let accents: [(String, UInt32, UInt32, UInt32, UInt32)] = [
        ("systemRed", 0xFF3B30, 0xFF453A, 0xD70015, 0xFF6961),
        ("systemOrange", 0xFF9500, 0xFF9F0A, 0xC93400, 0xFFB340),
        ("systemYellow", 0xFFCC00, 0xFFD60A, 0xB25000, 0xFFD426),
        ("systemGreen", 0x34C759, 0x30D158, 0x248A3D, 0x30DB5B),
        ("systemMint", 0x00C7BE, 0x66D4CF, 0x0C817B, 0x66D4CF),
        ("systemTeal", 0x30B0C7, 0x40C8E0, 0x008299, 0x5DE6FF),
        ("systemCyan", 0x32ADE6, 0x64D2FF, 0x0071A4, 0x70D7FF),
        ("systemBlue", 0x007AFF, 0x0A84FF, 0x0040DD, 0x409CFF),
        ("systemIndigo", 0x5856D6, 0x5E5CE6, 0x3634A3, 0x7D7AFF),
        ("systemPurple", 0xAF52DE, 0xBF5AF2, 0x8944AB, 0xDA8FFF),
        ("systemPink", 0xFF2D55, 0xFF375F, 0xD30F45, 0xFF6482),
        ("systemBrown", 0xA5845E, 0xAC8E68, 0x7F6545, 0xB59469),
        ("tintColor", 0x007AFF, 0x0A84FF, 0x0040DD, 0x409CFF),
    ]

    static let unpublished = [
        "label", "secondaryLabel", "tertiaryLabel", "quaternaryLabel", "placeholderText", "separator", "opaqueSeparator",
        "systemFill", "secondarySystemFill", "tertiarySystemFill", "quaternarySystemFill",
        "systemBackground", "secondarySystemBackground", "tertiarySystemBackground",
        "systemGroupedBackground", "secondarySystemGroupedBackground", "tertiarySystemGroupedBackground",
    ]

    @Test func everyAccentTakesItsAccessibleValueByName() throws {
        for (name, light, dark, lightHigh, darkHigh) in Self.accents {
            let color = try #require(Color.named[name], "\(name) is a named colour")
            #expect(Self.hex(Self.resolved(color, .light, .normal)) == light, "\(name)")
            #expect(Self.hex(Self.resolved(color, .dark, .normal)) == dark, "\(name)")
            #expect(Self.hex(Self.resolved(color, .light, .high)) == lightHigh, "\(name)")
            #expect(Self.hex(Self.resolved(color, .dark, .high)) == darkHigh, "\(name)")
            // The level changes no accent.
            #expect(Self.resolved(color, .dark, .high, .elevated) == Self.resolved(color, .dark, .high), "\(name)")
        }
    }

    /// WCAG's contrast ratio of two opaque colours.
    static func contrastRatio(_ a: RGBA, _ b: RGBA) -> Double {
        func channel(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        func luminance(_ c: RGBA) -> Double { 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue) }
        let (x, y) = (luminance(a) + 0.05, luminance(b) + 0.05)
        return max(x, y) / min(x, y)
    }

    /// On white every accessible accent is darker. (On black there is no such rule: Apple's
    /// accessible dark yellow is a shade less luminous than its default, and mint's is the same.)
    @Test func accessibleAccentsStandOutMoreOnWhite() throws {
        let white = RGBA(red: 1, green: 1, blue: 1)
        for (name, _, _, _, _) in Self.accents {
            let color = try #require(Color.named[name])
            #expect(Self.contrastRatio(Self.resolved(color, .light, .high), white)
                    > Self.contrastRatio(Self.resolved(color, .light, .normal), white), "\(name) on white")
        }
    }

    @Test func coloursWithoutPublishedAccessibleValuesStayAsTheyAre() throws {
        for name in Self.unpublished {
            let color = try #require(Color.named[name], "\(name) is a named colour")
            for style in UserInterfaceStyle.allCases {
                for level in UserInterfaceLevel.allCases {
                    #expect(Self.resolved(color, style, .high, level) == Self.resolved(color, style, .normal, level),
                            "\(name) \(style) \(level)")
                }
            }
        }
    }

    @Test func elevatedDarkBackgroundsKeepTheirValuesUnderIncreasedContrast() throws {
        let expected: [(String, UInt32)] = [
            ("systemBackground", 0x1C1C1E), ("secondarySystemBackground", 0x2C2C2E), ("tertiarySystemBackground", 0x3A3A3C),
            ("systemGroupedBackground", 0x1C1C1E), ("secondarySystemGroupedBackground", 0x2C2C2E),
            ("tertiarySystemGroupedBackground", 0x3A3A3C),
        ]
        for (name, value) in expected {
            let color = try #require(Color.named[name])
            #expect(Self.hex(Self.resolved(color, .dark, .high, .elevated)) == value, "\(name)")
            #expect(Self.resolved(color, .light, .high, .elevated) == Self.resolved(color, .light, .normal), "\(name) light")
        }
    }

    @Test func quaternaryFillIsTheFaintestFill() throws {
        for style in UserInterfaceStyle.allCases {
            let alphas = [Color.systemFill, .secondarySystemFill, .tertiarySystemFill, .quaternarySystemFill]
                .map { Self.resolved($0, style, .normal).alpha }
            #expect(alphas == alphas.sorted(by: >), "\(style): \(alphas)")
        }
    }
}
