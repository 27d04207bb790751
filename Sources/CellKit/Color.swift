/// sRGB colours with straight (un-premultiplied) alpha, components 0…1.
/// A colour may be dynamic — a light and a dark variant, and optionally high-contrast ones —
/// resolved against a trait collection, like UIKit's system colours.

public struct RGBA: Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
}

public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The appearance used for light mode (and the only one of a static colour).
    public var light: RGBA
    /// The dark and high-contrast appearances of a dynamic colour, shared by copies: nil for a
    /// static colour (every resolved colour), so a colour copied into configurations, display
    /// commands and property values is 48 bytes instead of four inline variants.
    private var variants: DynamicVariants?
    /// The system name of a named colour ("label", "systemBlue"), kept so traces stay readable.
    public var name: String? {
        get { nameNumber == 0 ? nil : ColorNames.name(numbered: nameNumber) }
        set { nameNumber = newValue.map(ColorNames.number(of:)) ?? 0 }
    }
    /// `name` as its number in `ColorNames`; 0 for none.
    private var nameNumber: UInt32 = 0

    /// The appearances beside `light`; immutable, so copies share one and a change makes another.
    private final class DynamicVariants: Sendable {
        let dark: RGBA?
        let lightHighContrast: RGBA?
        let darkHighContrast: RGBA?

        init(dark: RGBA?, lightHighContrast: RGBA?, darkHighContrast: RGBA?) {
            self.dark = dark
            self.lightHighContrast = lightHighContrast
            self.darkHighContrast = darkHighContrast
        }

        /// Nil when every variant is nil: a static colour holds no box.
        static func make(dark: RGBA?, lightHighContrast: RGBA?, darkHighContrast: RGBA?) -> DynamicVariants? {
            dark == nil && lightHighContrast == nil && darkHighContrast == nil
                ? nil : DynamicVariants(dark: dark, lightHighContrast: lightHighContrast, darkHighContrast: darkHighContrast)
        }
    }

    /// The dark-mode appearance; nil for a static colour.
    public var dark: RGBA? {
        get { variants?.dark }
        set { variants = .make(dark: newValue, lightHighContrast: lightHighContrast, darkHighContrast: darkHighContrast) }
    }
    /// High-contrast variants (`AccessibilityContrast.high`); nil to use the normal ones.
    public var lightHighContrast: RGBA? {
        get { variants?.lightHighContrast }
        set { variants = .make(dark: dark, lightHighContrast: newValue, darkHighContrast: darkHighContrast) }
    }
    public var darkHighContrast: RGBA? {
        get { variants?.darkHighContrast }
        set { variants = .make(dark: dark, lightHighContrast: lightHighContrast, darkHighContrast: newValue) }
    }

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        light = RGBA(red: red, green: green, blue: blue, alpha: alpha)
    }

    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A dynamic colour, as `UIColor { traits in … }` with a light and a dark variant.
    public init(name: String? = nil, light: RGBA, dark: RGBA, lightHighContrast: RGBA? = nil,
                darkHighContrast: RGBA? = nil) {
        self.light = light
        variants = .make(dark: dark, lightHighContrast: lightHighContrast, darkHighContrast: darkHighContrast)
        self.name = name
    }

    private init(light: RGBA, variants: DynamicVariants?) {
        self.light = light
        self.variants = variants
    }

    /// Equal when every appearance and the name are (shared variants compare by identity first).
    public static func == (a: Color, b: Color) -> Bool {
        guard a.light == b.light, a.nameNumber == b.nameNumber else { return false }
        switch (a.variants, b.variants) {
        case (nil, nil): return true
        case (let x?, let y?):
            return x === y || (x.dark == y.dark && x.lightHighContrast == y.lightHighContrast
                && x.darkHighContrast == y.darkHighContrast)
        default: return false
        }
    }

    /// The same fields in the same order as a colour storing its variants inline.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(light)
        hasher.combine(dark)
        hasher.combine(lightHighContrast)
        hasher.combine(darkHighContrast)
        hasher.combine(nameNumber)
    }

    public var isDynamic: Bool { variants != nil }

    public var red: Double { light.red }
    public var green: Double { light.green }
    public var blue: Double { light.blue }
    public var alpha: Double { light.alpha }

    /// The static colour this one shows under the given traits (UIKit's `resolvedColor(with:)`).
    public func resolved(with traits: TraitCollection) -> Color {
        guard let variants else { return self }
        let dark = traits.userInterfaceStyle == .dark
        let high = traits.accessibilityContrast == .high
        let rgba: RGBA
        switch (dark, high) {
        case (false, false): rgba = light
        case (false, true): rgba = variants.lightHighContrast ?? light
        case (true, false): rgba = variants.dark ?? light
        case (true, true): rgba = variants.darkHighContrast ?? variants.dark ?? light
        }
        if dark, traits.userInterfaceLevel == .elevated, nameNumber != 0,
           let elevated = Color.elevatedDarkBackgrounds[nameNumber] {
            var resolved = self
            resolved.light = elevated
            resolved.variants = nil
            return resolved
        }
        var resolved = self
        resolved.light = rgba
        resolved.variants = nil
        return resolved
    }

    public func withAlphaComponent(_ alpha: Double) -> Color {
        mapComponents { c in
            var c = c
            c.alpha = alpha
            return c
        }
    }

    /// Applies `transform` to every variant, keeping the colour dynamic.
    public func mapComponents(_ transform: (RGBA) -> RGBA) -> Color {
        let mapped = variants.flatMap {
            DynamicVariants.make(dark: $0.dark.map(transform), lightHighContrast: $0.lightHighContrast.map(transform),
                                 darkHighContrast: $0.darkHighContrast.map(transform))
        }
        return Color(light: transform(light), variants: mapped)
    }

    // MARK: Hex

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional). Returns nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharactersInWhitespace())
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.allSatisfy(\.isHexDigit) else { return nil }
        let digits = Array(s)
        func byte(_ i: Int) -> Double { Double(Int(String(digits[i...i + 1]), radix: 16)!) / 255 }
        func nibble(_ i: Int) -> Double { Double(Int(String(digits[i]), radix: 16)! * 17) / 255 }
        switch digits.count {
        case 3: self.init(red: nibble(0), green: nibble(1), blue: nibble(2))
        case 6: self.init(red: byte(0), green: byte(2), blue: byte(4))
        case 8: self.init(red: byte(0), green: byte(2), blue: byte(4), alpha: byte(6))
        default: return nil
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque, of the light (static) appearance.
    public var hexString: String { Color.hex(light) }

    /// "#RRGGBB", or "#RRGGBBAA" when not opaque.
    static func hex(_ c: RGBA) -> String {
        String(unsafeUninitializedCapacity: 9) { writeHex(c, into: $0, at: 0) }
    }

    /// Writes `c` as `hex` spells it at `start`; answers where it ended.
    private static func writeHex(_ c: RGBA, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let digits: StaticString = "0123456789ABCDEF"
        func byte(_ v: Double, at i: Int) {
            let b = Int((Swift.min(1, Swift.max(0, v.isNaN ? 0 : v)) * 255).rounded())
            bytes[i] = digits.utf8Start[b >> 4]
            bytes[i + 1] = digits.utf8Start[b & 15]
        }
        bytes[start] = UInt8(ascii: "#")
        byte(c.red, at: start + 1)
        byte(c.green, at: start + 3)
        byte(c.blue, at: start + 5)
        guard c.alpha < 1 else { return start + 7 }
        byte(c.alpha, at: start + 7)
        return start + 9
    }

    /// "name #RRGGBB/#RRGGBB": the name when there is one, the light and the dark appearance.
    /// Written straight into the string's bytes (traces print colours for every property change
    /// they show, and appending the pieces cost more than the rest of the change).
    public var description: String {
        let named = self.name
        let hasName = named != nil
        var name = named ?? ""
        return name.withUTF8 { name in
            String(unsafeUninitializedCapacity: name.count + 1 + 9 + (variants?.dark == nil ? 0 : 10)) { bytes in
                var end = 0
                if hasName {
                    _ = UnsafeMutableBufferPointer(rebasing: bytes[0..<name.count]).initialize(from: name)
                    end = name.count
                    bytes[end] = UInt8(ascii: " ")
                    end += 1
                }
                end = Color.writeHex(light, into: bytes, at: end)
                if let dark {
                    bytes[end] = UInt8(ascii: "/")
                    end = Color.writeHex(dark, into: bytes, at: end + 1)
                }
                return end
            }
        }
    }
}

extension String {
    func trimmingCharactersInWhitespace() -> Substring {
        let scalars = Substring(self)
        let start = scalars.firstIndex(where: { !$0.isWhitespace }) ?? scalars.endIndex
        let end = scalars.lastIndex(where: { !$0.isWhitespace }).map { scalars.index(after: $0) } ?? start
        return scalars[start..<end]
    }
}

// MARK: - System colours (iOS values)

extension Color {
    static func system(_ name: String, _ light: UInt32, _ dark: UInt32, lightAlpha: Double = 1, darkAlpha: Double = 1,
                       lightHC: UInt32? = nil, darkHC: UInt32? = nil) -> Color {
        func rgba(_ v: UInt32, _ a: Double) -> RGBA {
            RGBA(red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255,
                 blue: Double(v & 0xFF) / 255, alpha: a)
        }
        return Color(name: name, light: rgba(light, lightAlpha), dark: rgba(dark, darkAlpha),
                     lightHighContrast: lightHC.map { rgba($0, lightAlpha) },
                     darkHighContrast: darkHC.map { rgba($0, darkAlpha) })
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    // The accents: default and accessible (increased contrast) values, light and dark, as Apple's
    // HIG colour tables publish them for iOS and iPadOS. tintColor is systemBlue's.
    public static let systemRed = system("systemRed", 0xFF3B30, 0xFF453A, lightHC: 0xD70015, darkHC: 0xFF6961)
    public static let systemOrange = system("systemOrange", 0xFF9500, 0xFF9F0A, lightHC: 0xC93400, darkHC: 0xFFB340)
    public static let systemYellow = system("systemYellow", 0xFFCC00, 0xFFD60A, lightHC: 0xB25000, darkHC: 0xFFD426)
    public static let systemGreen = system("systemGreen", 0x34C759, 0x30D158, lightHC: 0x248A3D, darkHC: 0x30DB5B)
    /// Apple's accessible dark value of mint is its default dark value.
    public static let systemMint = system("systemMint", 0x00C7BE, 0x66D4CF, lightHC: 0x0C817B, darkHC: 0x66D4CF)
    public static let systemTeal = system("systemTeal", 0x30B0C7, 0x40C8E0, lightHC: 0x008299, darkHC: 0x5DE6FF)
    public static let systemCyan = system("systemCyan", 0x32ADE6, 0x64D2FF, lightHC: 0x0071A4, darkHC: 0x70D7FF)
    public static let systemBlue = system("systemBlue", 0x007AFF, 0x0A84FF, lightHC: 0x0040DD, darkHC: 0x409CFF)
    public static let systemIndigo = system("systemIndigo", 0x5856D6, 0x5E5CE6, lightHC: 0x3634A3, darkHC: 0x7D7AFF)
    public static let systemPurple = system("systemPurple", 0xAF52DE, 0xBF5AF2, lightHC: 0x8944AB, darkHC: 0xDA8FFF)
    public static let systemPink = system("systemPink", 0xFF2D55, 0xFF375F, lightHC: 0xD30F45, darkHC: 0xFF6482)
    public static let systemBrown = system("systemBrown", 0xA5845E, 0xAC8E68, lightHC: 0x7F6545, darkHC: 0xB59469)
    /// The grays' increased-contrast variants are Apple's published accessible values: each
    /// moves away from the background it sits on (darker in light mode, lighter in dark mode).
    public static let systemGray = system("systemGray", 0x8E8E93, 0x8E8E93, lightHC: 0x6C6C70, darkHC: 0xAEAEB2)
    public static let systemGray2 = system("systemGray2", 0xAEAEB2, 0x636366, lightHC: 0x8E8E93, darkHC: 0x7C7C80)
    public static let systemGray3 = system("systemGray3", 0xC7C7CC, 0x48484A, lightHC: 0xAEAEB2, darkHC: 0x545456)
    public static let systemGray4 = system("systemGray4", 0xD1D1D6, 0x3A3A3C, lightHC: 0xBCBCC0, darkHC: 0x444446)
    public static let systemGray5 = system("systemGray5", 0xE5E5EA, 0x2C2C2E, lightHC: 0xD8D8DC, darkHC: 0x363638)
    public static let systemGray6 = system("systemGray6", 0xF2F2F7, 0x1C1C1E, lightHC: 0xEBEBF0, darkHC: 0x242426)

    /// The app's accent colour; `nil` background colours and `.preferredTint` resolve to it.
    public static let tintColor = system("tintColor", 0x007AFF, 0x0A84FF, lightHC: 0x0040DD, darkHC: 0x409CFF)

    // Labels, separators, placeholder text, fills and backgrounds: Apple publishes no accessible
    // values for these (its colour tables cover the accents and the grays only), so increased
    // contrast leaves them as they are rather than inventing values.
    public static let label = system("label", 0x000000, 0xFFFFFF)
    public static let secondaryLabel = system("secondaryLabel", 0x3C3C43, 0xEBEBF5, lightAlpha: 0.6, darkAlpha: 0.6)
    public static let tertiaryLabel = system("tertiaryLabel", 0x3C3C43, 0xEBEBF5, lightAlpha: 0.3, darkAlpha: 0.3)
    public static let quaternaryLabel = system("quaternaryLabel", 0x3C3C43, 0xEBEBF5, lightAlpha: 0.18, darkAlpha: 0.16)
    public static let placeholderText = system("placeholderText", 0x3C3C43, 0xEBEBF5, lightAlpha: 0.3, darkAlpha: 0.3)
    public static let separator = system("separator", 0x3C3C43, 0x545458, lightAlpha: 0.29, darkAlpha: 0.6)
    public static let opaqueSeparator = system("opaqueSeparator", 0xC6C6C8, 0x38383A)

    public static let systemBackground = system("systemBackground", 0xFFFFFF, 0x000000)
    public static let secondarySystemBackground = system("secondarySystemBackground", 0xF2F2F7, 0x1C1C1E)
    public static let tertiarySystemBackground = system("tertiarySystemBackground", 0xFFFFFF, 0x2C2C2E)
    public static let systemGroupedBackground = system("systemGroupedBackground", 0xF2F2F7, 0x000000)
    public static let secondarySystemGroupedBackground = system("secondarySystemGroupedBackground", 0xFFFFFF, 0x1C1C1E)
    public static let tertiarySystemGroupedBackground = system("tertiarySystemGroupedBackground", 0xF2F2F7, 0x2C2C2E)
    public static let systemFill = system("systemFill", 0x787880, 0x787880, lightAlpha: 0.2, darkAlpha: 0.36)
    public static let secondarySystemFill = system("secondarySystemFill", 0x787880, 0x787880, lightAlpha: 0.16, darkAlpha: 0.32)
    public static let tertiarySystemFill = system("tertiarySystemFill", 0x767680, 0x767680, lightAlpha: 0.12, darkAlpha: 0.24)
    public static let quaternarySystemFill = system("quaternarySystemFill", 0x747480, 0x767680, lightAlpha: 0.08, darkAlpha: 0.18)

    /// The dark appearances of the system backgrounds at the elevated level, by name number:
    /// the three levels of each set step up to the next lighter gray, so elevated content stands
    /// apart from what lies beneath. Light backgrounds, and every other colour, do not change.
    static let elevatedDarkBackgrounds: [UInt32: RGBA] = {
        func gray(_ v: UInt32) -> RGBA {
            RGBA(red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
        }
        let values: [(Color, UInt32)] = [
            (.systemBackground, 0x1C1C1E), (.secondarySystemBackground, 0x2C2C2E), (.tertiarySystemBackground, 0x3A3A3C),
            (.systemGroupedBackground, 0x1C1C1E), (.secondarySystemGroupedBackground, 0x2C2C2E),
            (.tertiarySystemGroupedBackground, 0x3A3A3C),
        ]
        return Dictionary(uniqueKeysWithValues: values.map { ($0.0.nameNumber, gray($0.1)) })
    }()

    /// Every named colour, so event streams and plugins can name them ("label", "systemBlue").
    public static let named: [String: Color] = {
        let all: [Color] = [
            .systemBlue, .systemRed, .systemGreen, .systemOrange, .systemYellow, .systemPink, .systemPurple,
            .systemTeal, .systemIndigo, .systemMint, .systemCyan, .systemBrown, .systemGray, .systemGray2, .systemGray3, .systemGray4, .systemGray5,
            .systemGray6, .tintColor, .label, .secondaryLabel, .tertiaryLabel, .quaternaryLabel,
            .placeholderText, .separator, .opaqueSeparator, .systemBackground, .secondarySystemBackground,
            .tertiarySystemBackground, .systemGroupedBackground, .secondarySystemGroupedBackground,
            .tertiarySystemGroupedBackground, .systemFill, .secondarySystemFill, .tertiarySystemFill,
            .quaternarySystemFill,
        ]
        var map = Dictionary(uniqueKeysWithValues: all.map { ($0.name!, $0) })
        var clear = Color.clear; clear.name = "clear"; map["clear"] = clear
        var black = Color.black; black.name = "black"; map["black"] = black
        var white = Color.white; white.name = "white"; map["white"] = white
        return map
    }()

    /// A named system colour or a hex string.
    public init?(parsing text: String) {
        if let named = Color.named[text] { self = named; return }
        guard let c = Color(hex: text) else { return nil }
        self = c
    }
}
