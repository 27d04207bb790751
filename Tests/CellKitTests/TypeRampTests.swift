import Testing
@testable import CellKit

@Suite struct TypeRampTests {
    @Test func bodyFollowsApplesPublishedSizes() {
        let sizes = ContentSizeCategory.allCases.map { TextStyle.body.pointSize(for: $0) }
        #expect(sizes == [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53])
    }

    @Test func everyStyleGrowsMonotonicallyAndMatchesKnownLargeSizes() {
        let large: [TextStyle: Double] = [.largeTitle: 34, .title1: 28, .title2: 22, .title3: 20, .headline: 17,
                                          .body: 17, .callout: 16, .subheadline: 15, .footnote: 13, .caption1: 12,
                                          .caption2: 11]
        for style in TextStyle.allCases {
            #expect(style.pointSize(for: .large) == large[style])
            let sizes = ContentSizeCategory.allCases.map { style.pointSize(for: $0) }
            #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test func defaultFontsScaleWithTheContentSizeCategory() {
        let config = ListContentConfiguration.cell()
        let ax5 = CellConfigurationState(traitCollection: TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge))
        #expect(config.textProperties.font.pointSize == 17)
        #expect(config.updated(for: ax5).textProperties.font.pointSize == 53)
        #expect(config.updated(for: ax5).secondaryTextProperties.font.pointSize == 49)
    }

    @Test func customTextStyleFontsScaleOnlyWhileAdjustingIsOn() {
        var config = ListContentConfiguration.cell()
        config.textProperties.font = Font.preferredFont(forTextStyle: .title2).withWeight(.bold)
        let xs = CellConfigurationState(traitCollection: TraitCollection(preferredContentSizeCategory: .extraSmall))
        let scaled = config.updated(for: xs).textProperties.font
        #expect(scaled.pointSize == 19 && scaled.weight == .bold)
        config.textProperties.adjustsFontForContentSizeCategory = false
        #expect(config.updated(for: xs).textProperties.font.pointSize == 22)
        // A fixed-size font made without a text style never scales.
        config.textProperties.adjustsFontForContentSizeCategory = true
        config.textProperties.font = .systemFont(ofSize: 12)
        #expect(config.updated(for: xs).textProperties.font.pointSize == 12)
    }
}
