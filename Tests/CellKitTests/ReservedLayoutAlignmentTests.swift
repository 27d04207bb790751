import Testing
@testable import CellKit

/// The WWDC20 example: three cells whose images differ in width line their text up once they
/// reserve the same layout width for the image.
@Suite struct ReservedLayoutAlignmentTests {
    let measurer = FixedAdvanceTextMeasurer()

    func drawnTextX(imageWidth: Double, reservedWidth: Double?) -> Double? {
        let cell = Cell(appearance: .insetGrouped)
        var content = cell.defaultContentConfiguration()
        content.image = Image(path: "/art/\(imageWidth).png", size: Size(width: imageWidth, height: 22))
        if let reservedWidth { content.imageProperties.reservedLayoutSize = Size(width: reservedWidth, height: 0) }
        content.text = "Sticker"
        cell.contentConfiguration = content
        let height = cell.preferredHeight(forWidth: 350, measurer: measurer)
        var list = DisplayList()
        cell.draw(size: Size(width: 350, height: height), measurer: measurer, into: &list)
        for command in list.commands { if case .text(let run) = command { return run.frame.minX } }
        return nil
    }

    @Test func differentImageWidthsMisalignTextWithoutAReservation() {
        let xs = [18.0, 24.0, 30.0].map { drawnTextX(imageWidth: $0, reservedWidth: nil) }
        #expect(Set(xs).count == 3)
    }

    @Test func theSameReservedWidthAlignsTheirText() {
        let xs = [18.0, 24.0, 30.0].map { drawnTextX(imageWidth: $0, reservedWidth: 32) }
        #expect(Set(xs).count == 1)
        #expect(xs.allSatisfy { $0 == 16 + 32 + 16 })
    }

    @Test func contentIsCentredInARowTallerThanItNeeds() throws {
        var content = ListContentConfiguration.cell()
        content.text = "Short"
        let view = ListContentView(configuration: content)
        let context = LayoutContext(traits: .default, textMeasurer: measurer)
        var list = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 300, height: 64), context: context, into: &list)
        guard case .text(let run) = list.commands.first else { Issue.record("no text"); return }
        #expect(run.frame.minY == 11.5 + 10)  // centred in the 44-point row, then 20pt of slack split evenly
    }
}
