import CellKit
import Testing
@testable import CellRender

/// Every named system colour as a swatch on the system background, in light and dark, at normal
/// and increased contrast: the accents and grays take Apple's accessible values, and every
/// other swatch stays exactly as it was.
@Suite struct SystemColorSwatchGoldenTests {
    static let names = Color.named.keys.filter { !["black", "white", "clear"].contains($0) }.sorted()
    static let rowHeight = 22.0
    static let columnWidth = 240.0
    static let rowsPerColumn = (names.count + 1) / 2
    static let size = Size(width: columnWidth * 2, height: Double(rowsPerColumn) * rowHeight + 8)

    static func swatchFrame(_ index: Int) -> Rect {
        Rect(x: 8 + Double(index / rowsPerColumn) * columnWidth, y: 6 + Double(index % rowsPerColumn) * rowHeight,
             width: 30, height: 16)
    }

    static func render(_ style: UserInterfaceStyle, _ contrast: AccessibilityContrast) -> RasterImage {
        let traits = TraitCollection(userInterfaceStyle: style, accessibilityContrast: contrast)
        var list = DisplayList()
        for (i, name) in names.enumerated() {
            let swatch = swatchFrame(i)
            list.append(.roundedRect(swatch, cornerRadius: 4, color: Color.named[name]!.resolved(with: traits)))
            // A fixed mid-gray outline, so a swatch the colour of the background still shows its place.
            list.append(.stroke(swatch, cornerRadius: 4, width: 1, color: Color(white: 0.5, alpha: 0.5)))
            list.append(.text(TextRun(text: name, font: Font(pointSize: 11, weight: .regular),
                                      color: Color.label.resolved(with: traits),
                                      frame: Rect(x: swatch.maxX + 6, y: swatch.minY, width: columnWidth - 46, height: swatch.height),
                                      numberOfLines: 1)))
        }
        return Fixtures.render(list, size: size, background: Color.systemBackground.resolved(with: traits))
    }

    static func centre(of index: Int, in image: RasterImage) -> [UInt8] {
        let frame = swatchFrame(index)
        let p = image.rgba(x: Int(frame.midX), y: Int(frame.midY))
        return [p.red, p.green, p.blue, p.alpha]
    }

    @Test(arguments: UserInterfaceStyle.allCases)
    func swatchesAtNormalAndIncreasedContrast(style: UserInterfaceStyle) {
        let normal = Self.render(style, .normal)
        let high = Self.render(style, .high)
        goldens.check(normal, "system-colours-\(style.rawValue)")
        goldens.check(high, "system-colours-\(style.rawValue)-high-contrast")
        for (i, name) in Self.names.enumerated() {
            let published = name.hasPrefix("systemGray") || ["tintColor", "systemRed", "systemOrange", "systemYellow", "systemGreen",
                "systemMint", "systemTeal", "systemCyan", "systemBlue", "systemIndigo", "systemPurple", "systemPink", "systemBrown"]
                .contains(name)
            let changed = Self.centre(of: i, in: normal) != Self.centre(of: i, in: high)
            // Mint's accessible dark value is its default one.
            if published, !(name == "systemMint" && style == .dark) {
                #expect(changed, "\(name) takes its accessible value in \(style)")
            } else if !published {
                #expect(!changed, "\(name) has no published accessible value and stays in \(style)")
            }
        }
    }
}
