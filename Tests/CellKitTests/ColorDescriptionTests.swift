import Testing
@testable import CellKit

/// Traces print colours as "name #RRGGBB/#RRGGBB": the digits are written into the string's
/// bytes directly, so they are checked against the standard library's formatting.
@Suite struct ColorDescriptionTests {
    /// Two upper-case hex digits, as `String(_:radix:uppercase:)` writes them.
    static func reference(_ byte: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    @Test func everyByteIsTwoUpperCaseDigits() {
        for b in 0...255 {
            let grey = Color(white: Double(b) / 255)
            let r = Self.reference(b)
            #expect(grey.hexString == "#" + r + r + r)
        }
    }

    @Test func alphaIsAppendedOnlyWhenNotOpaque() {
        #expect(Color(red: 1, green: 0, blue: 0.5).description == "#FF0080")
        #expect(Color(red: 1, green: 0, blue: 0.5, alpha: 0.5).description == "#FF008080")
        #expect(Color(red: 0, green: 0, blue: 0, alpha: 0).description == "#00000000")
    }

    @Test func componentsOutsideZeroToOneAreClamped() {
        #expect(Color(red: 2, green: -1, blue: .nan).description == "#FF0000")
    }

    @Test func namesOfAnyLengthPrecedeTheDigits() {
        let light = RGBA(red: 0, green: 0.5, blue: 1), dark = RGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.5)
        for name in ["", "a", "secondarySystemGroupedBackground", "grün", "名前の長い色の名前"] {
            let c = Color(name: name, light: light, dark: dark)
            #expect(c.description == name + " #0080FF/#33333380", "\(name)")
        }
        var staticNamed = Color(red: 1, green: 1, blue: 1)
        staticNamed.name = "white"
        #expect(staticNamed.description == "white #FFFFFF")
    }

    @Test func namedDynamicColoursShowNameLightAndDark() {
        let c = Color(name: "accent", light: RGBA(red: 0, green: 0.5, blue: 1), dark: RGBA(red: 1, green: 1, blue: 1, alpha: 0.25))
        #expect(c.description == "accent #0080FF/#FFFFFF40")
        #expect(Color.systemBlue.description.hasPrefix("systemBlue #"))
        #expect(Color.systemBlue.resolved(with: TraitCollection()).description == "systemBlue " + Color.systemBlue.hexString)
    }
}
