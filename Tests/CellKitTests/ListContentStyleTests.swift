import Testing
@testable import CellKit

@Suite struct ListContentStyleTests {
    @Test func factoriesGiveTheirStylesDefaults() {
        #expect(ListContentConfiguration.cell().textProperties.font == .preferredFont(forTextStyle: .body))
        #expect(ListContentConfiguration.valueCell().prefersSideBySideTextAndSecondaryText)
        #expect(!ListContentConfiguration.subtitleCell().prefersSideBySideTextAndSecondaryText)
        #expect(ListContentConfiguration.valueCell().secondaryTextProperties.font.textStyle == .body)
        let grouped = ListContentConfiguration.groupedHeader()
        #expect(grouped.textProperties.transform == .uppercase && grouped.textProperties.color == .secondaryLabel)
        #expect(ListContentConfiguration.prominentInsetGroupedHeader().textProperties.font.weight == .bold)
        #expect(ListContentConfiguration.extraProminentInsetGroupedHeader().textProperties.font.pointSize
            > ListContentConfiguration.prominentInsetGroupedHeader().textProperties.font.pointSize)
        #expect(ListContentConfiguration.plainFooter().textProperties.font.textStyle == .footnote)
        #expect(ListContentConfiguration.sidebarHeader().textProperties.font.weight == .semibold)
    }

    @Test func transformAndAttributedTextShapeTheDisplayedText() {
        var c = ListContentConfiguration.groupedHeader()
        c.text = "Recent items"
        #expect(c.displayedText == "RECENT ITEMS")
        c.textProperties.transform = .capitalized
        #expect(c.displayedText == "Recent Items")
        c.attributedText = AttributedText([.init("big "), .init("deal", font: .systemFont(ofSize: 30), color: .systemRed)])
        #expect(c.displayedText == "Big Deal")
        #expect(c.attributedText?.font(over: c.textProperties.font) == c.textProperties.font && c.attributedText?.color == nil,
                "several runs keep their attributes to themselves")
        #expect(AttributedText("one", font: .systemFont(ofSize: 30)).font(over: c.textProperties.font).pointSize == 30)
        c.text = ""
        c.attributedText = nil
        #expect(c.displayedText == nil)
    }

    @Test func disabledDimsTextAndImageUnlessSelectedInASidebar() {
        let disabled = CellConfigurationState(isDisabled: true)
        let cell = ListContentConfiguration.cell().updated(for: disabled)
        #expect(cell.textProperties.color == .tertiaryLabel && cell.imageProperties.tintColor == .tertiaryLabel)
        let sidebar = ListContentConfiguration.sidebarCell().updated(for: CellConfigurationState(isSelected: true, isDisabled: true))
        #expect(sidebar.textProperties.color == .white)
        let accompanied = ListContentConfiguration.accompaniedSidebarCell().updated(for: CellConfigurationState(isSelected: true))
        #expect(accompanied.textProperties.color == .label)
    }

    @Test func imageTintResolvesThroughTheTransformer() {
        var c = ListContentConfiguration.cell()
        #expect(c.imageProperties.resolvedTintColor(for: .systemPurple) == .systemPurple)
        c.imageProperties.tintColorTransformer = .grayscale
        #expect(c.imageProperties.resolvedTintColor(for: .systemPurple) == ColorTransformer.grayscale(.systemPurple))
        c.textProperties.colorTransformer = .preferredTint
        #expect(c.textProperties.resolvedColor().light == Color.tintColor.light)
    }

    @Test func headerAndFooterFollowTheListEnvironment() {
        func env(_ e: ListEnvironment) -> ViewConfigurationState {
            ViewConfigurationState(traitCollection: TraitCollection(listEnvironment: e))
        }
        let header = ListContentConfiguration.header()
        #expect(header.updated(for: env(.insetGrouped)).textProperties.transform == .uppercase)
        #expect(header.updated(for: env(.plain)).textProperties.font.textStyle == .headline)
        #expect(header.updated(for: env(.sidebar)).textProperties.font.weight == .semibold)
        #expect(ListContentConfiguration.footer().updated(for: env(.grouped)).textProperties.color == .secondaryLabel)
    }
}
