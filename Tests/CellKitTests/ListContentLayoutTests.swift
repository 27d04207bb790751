import Testing
@testable import CellKit

@Suite struct ListContentLayoutTests {
    let measurer = FixedAdvanceTextMeasurer()
    func context(_ traits: TraitCollection = .default) -> LayoutContext {
        LayoutContext(traits: traits, textMeasurer: measurer)
    }

    @Test func heightComesFromMarginsPaddingsAndContent() {
        var c = ListContentConfiguration.subtitleCell()
        c.text = "Title"
        let oneLine = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(oneLine.size.height == 44, "one 21-point line and 11-point margins stay within the 44-point minimum row")
        c.secondaryText = "Detail"
        let stacked = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(stacked.size.height == 11 + 21 + 3 + 18 + 11)  // + padding + subheadline 15pt line
        #expect(stacked.secondaryTextFrame?.minY == stacked.textFrame!.maxY + 3)
        c.directionalLayoutMargins = DirectionalEdgeInsets(top: 20, leading: 16, bottom: 20, trailing: 16)
        #expect(ListContentLayout(configuration: c, width: 390, context: context()).size.height == stacked.size.height + 18)
    }

    @Test func longTextWrapsAndGrowsTheCell() {
        var c = ListContentConfiguration.cell()
        c.text = String(repeating: "word ", count: 40)
        let wrapped = ListContentLayout(configuration: c, width: 200, context: context())
        #expect(wrapped.size.height > 100)
        c.textProperties.numberOfLines = 1
        #expect(ListContentLayout(configuration: c, width: 200, context: context()).size.height == 44)
    }

    @Test func sameReservedWidthAlignsTextAcrossDifferentImageWidths() {
        let frames = [20.0, 28.0, 36.0].map { width -> ListContentLayout in
            var c = ListContentConfiguration.cell()
            c.image = Image(path: "/img/\(width).png", size: Size(width: width, height: 24))
            c.imageProperties.reservedLayoutSize = Size(width: 40, height: 0)
            c.text = "Aligned"
            return ListContentLayout(configuration: c, width: 390, context: context())
        }
        #expect(Set(frames.map { $0.textFrame!.minX }).count == 1)
        #expect(frames[0].textFrame!.minX == 16 + 40 + 16)
        for layout in frames {
            #expect(layout.imageLayoutFrame!.width == 40)
            #expect(layout.imageFrame!.midX == layout.imageLayoutFrame!.midX)  // centred, not scaled
        }
        #expect(frames.map { $0.imageFrame!.width } == [20, 28, 36])
        // Without a reservation the text follows each image's own width.
        var c = ListContentConfiguration.cell()
        c.image = Image(path: "/img/a.png", size: Size(width: 20, height: 24))
        c.text = "x"
        #expect(ListContentLayout(configuration: c, width: 390, context: context()).textFrame!.minX == 16 + 20 + 16)
    }

    @Test func symbolsGetTheStandardReservationWhichScalesWithTextSize() {
        var c = ListContentConfiguration.cell()
        c.image = Image(systemName: "star")
        c.text = "Star"
        let large = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(large.imageLayoutFrame!.width == 29)
        let xxxl = TraitCollection(preferredContentSizeCategory: .extraExtraExtraLarge)
        let bigger = ListContentLayout(configuration: c.updated(for: CellConfigurationState(traitCollection: xxxl)),
                                       width: 390, context: context(xxxl))
        #expect(bigger.imageLayoutFrame!.width == 40)  // 23pt body
        c.imageProperties.reservedLayoutSize = Size(width: ImageProperties.standardDimension, height: 0)
        c.image = Image(path: "/img/wide.png", size: Size(width: 10, height: 10))
        #expect(ListContentLayout(configuration: c, width: 390, context: context()).imageLayoutFrame!.width == 29)
    }

    @Test func maximumSizeAspectFitsTheImage() {
        var c = ListContentConfiguration.cell()
        c.image = Image(path: "/img/photo.png", size: Size(width: 200, height: 100))
        c.imageProperties.maximumSize = Size(width: 60, height: 60)
        let layout = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(layout.imageFrame!.size == Size(width: 60, height: 30))
        c.imageProperties.maximumSize = Size(width: 0, height: 20)
        #expect(ListContentLayout(configuration: c, width: 390, context: context()).imageFrame!.size == Size(width: 40, height: 20))
    }

    @Test func valueCellPutsSecondaryTextTrailingOnlyWhenItFits() {
        var c = ListContentConfiguration.valueCell()
        c.text = "Volume"
        c.secondaryText = "11"
        let fits = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(fits.isSideBySide)
        #expect(fits.secondaryTextFrame!.maxX == 390 - 16)
        #expect(fits.size.height == 44)
        c.secondaryText = String(repeating: "long value ", count: 8)
        let stacked = ListContentLayout(configuration: c, width: 390, context: context())
        #expect(!stacked.isSideBySide)
        #expect(stacked.secondaryTextFrame!.minX == stacked.textFrame!.minX)
        #expect(stacked.secondaryTextFrame!.minY > stacked.textFrame!.maxY)
    }

    @Test func accessibilitySizesPutTextUnderTheImageUsingTheWidth() {
        let ax = TraitCollection(preferredContentSizeCategory: .accessibilityLarge)
        var c = ListContentConfiguration.cell().updated(for: CellConfigurationState(traitCollection: ax))
        c.image = Image(systemName: "star")
        c.text = "Accessible"
        let layout = ListContentLayout(configuration: c, width: 390, context: context(ax))
        #expect(layout.isAccessibilityLayout)
        #expect(layout.textFrame!.minX == 16)
        #expect(layout.textFrame!.width == 390 - 32)
        #expect(layout.textFrame!.minY >= layout.imageLayoutFrame!.maxY)
    }

    @Test func rightToLeftMirrorsEveryFrame() {
        var c = ListContentConfiguration.cell()
        c.image = Image(systemName: "star")
        c.text = "Mirrored"
        c.directionalLayoutMargins = DirectionalEdgeInsets(top: 11, leading: 20, bottom: 11, trailing: 10)
        let ltr = ListContentLayout(configuration: c, width: 300, context: context())
        let rtl = ListContentLayout(configuration: c, width: 300, context: context(TraitCollection(layoutDirection: .rightToLeft)))
        #expect(rtl.imageFrame == ltr.imageFrame!.mirrored(inWidth: 300))
        #expect(rtl.textFrame == ltr.textFrame!.mirrored(inWidth: 300))
        #expect(rtl.imageLayoutFrame!.maxX == 300 - 20)
    }

    @Test func superviewMarginsWinOnPreservedAxes() {
        var c = ListContentConfiguration.cell()
        c.text = "x"
        var ctx = context()
        ctx.superviewLayoutMargins = DirectionalEdgeInsets(top: 30, leading: 40, bottom: 30, trailing: 40)
        let horizontal = ListContentLayout(configuration: c, width: 300, context: ctx)
        #expect(horizontal.textFrame!.minX == 40 && horizontal.size.height == 44)
        c.axesPreservingSuperviewLayoutMargins = .both
        #expect(ListContentLayout(configuration: c, width: 300, context: ctx).size.height == 30 + 21 + 30)
    }

    @Test func adjustsFontSizeToFitWidthShrinksASingleLine() {
        var c = ListContentConfiguration.cell()
        c.text = String(repeating: "x", count: 60)  // 510pt at 17pt
        c.textProperties.numberOfLines = 1
        c.textProperties.adjustsFontSizeToFitWidth = true
        c.textProperties.minimumScaleFactor = 0.5
        let layout = ListContentLayout(configuration: c, width: 287, context: context())  // 255pt for text
        #expect(layout.textFont.pointSize == 8.5)
    }

    @Test func fittedTextShrinksInsideTheRowItWouldHaveFilled() {
        var c = ListContentConfiguration.subtitleCell()
        c.text = String(repeating: "x", count: 60)
        c.secondaryText = "Detail"
        c.textProperties.numberOfLines = 1
        let unshrunk = ListContentLayout(configuration: c, width: 287, context: context())
        c.textProperties.adjustsFontSizeToFitWidth = true
        c.textProperties.minimumScaleFactor = 0.5
        let shrunk = ListContentLayout(configuration: c, width: 287, context: context())
        #expect(shrunk.textFont.pointSize < unshrunk.textFont.pointSize)
        #expect(shrunk.size.height == unshrunk.size.height, "the text shrinks, the row does not")
        #expect(shrunk.secondaryTextFrame == unshrunk.secondaryTextFrame)
        // The smaller line sits centred where the full-size line was.
        let full = unshrunk.textFrame!, small = shrunk.textFrame!
        #expect(small.height < full.height)
        #expect(abs(small.midY - full.midY) < 0.001)
    }

    @Test func singleLineCellsAreAtLeastTheMinimumRowHeightWhichScalesWithTextSize() {
        #expect(ListContentLayout.minimumCellHeight(for: .large) == 44)
        #expect(ListContentLayout.minimumCellHeight(for: .extraSmall) == 44, "never below 44 at small sizes")
        let sizes = ContentSizeCategory.allCases.map(ListContentLayout.minimumCellHeight(for:))
        #expect(sizes == sizes.sorted(), "grows with the text size")
        #expect(ListContentLayout.minimumCellHeight(for: .extraExtraExtraLarge) > 44)
        for category in [ContentSizeCategory.large, .extraExtraExtraLarge] {
            let traits = TraitCollection(preferredContentSizeCategory: category)
            var c = ListContentConfiguration.cell().updated(for: CellConfigurationState(traitCollection: traits))
            c.text = "One line"
            let layout = ListContentLayout(configuration: c, width: 390, context: context(traits))
            #expect(layout.size.height == ListContentLayout.minimumCellHeight(for: category))
            #expect(abs(layout.textFrame!.midY - layout.size.height / 2) < 0.001, "the line is centred in the taller row")
        }
        // Headers keep their own height.
        var header = ListContentConfiguration.plainHeader()
        header.text = "Header"
        #expect(ListContentLayout(configuration: header, width: 390, context: context()).size.height < 44)
    }
}
