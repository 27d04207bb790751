import Testing
@testable import CellKit

/// A cell keeps its self-sized height across update passes that leave its content view's
/// configuration as it was (a highlight restyles only the background), and sizes again as soon
/// as the content view is given something new.
@Suite struct SelfSizingTests {
    let measurer = FixedAdvanceTextMeasurer()

    @Test func aPassThatKeepsTheContentViewsConfigurationKeepsTheHeight() throws {
        let cell = Cell(appearance: .insetGrouped)
        let sizing = SizingCounter()
        cell.contentConfiguration = CountedConfiguration(height: 40, counter: sizing)
        #expect(cell.preferredHeight(forWidth: 300, measurer: measurer) == 40)
        #expect(sizing.calls == 1)

        cell.isHighlighted = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect(update.viewAction == .reused)
        #expect(update.backgroundAfterHooks != update.backgroundBeforeUpdate, "the highlight restyles the background")
        #expect(cell.preferredHeight(forWidth: 300, measurer: measurer) == 40)
        #expect(sizing.calls == 1, "the content view shows the same configuration: no new sizing")

        cell.contentConfiguration = CountedConfiguration(height: 64, counter: sizing)
        #expect(cell.preferredHeight(forWidth: 300, measurer: measurer) == 64, "a new configuration sizes again")
        #expect(sizing.calls == 2)

        cell.contentConfiguration = ForeignConfiguration()
        #expect(cell.preferredHeight(forWidth: 300, measurer: measurer) == 10, "a replaced view sizes again")
        cell.contentConfiguration = nil
        #expect(cell.preferredHeight(forWidth: 300, measurer: measurer)
            == cell.layoutMargins.top + cell.layoutMargins.bottom, "a removed view leaves the margins")
    }

    @Test func traitsAndWidthStillSizeAgain() {
        let cell = Cell(appearance: .insetGrouped)
        let sizing = SizingCounter()
        cell.contentConfiguration = CountedConfiguration(height: 40, counter: sizing)
        _ = cell.preferredHeight(forWidth: 300, measurer: measurer)
        _ = cell.preferredHeight(forWidth: 200, measurer: measurer)
        #expect(sizing.calls == 2)
        cell.traitCollection.userInterfaceStyle = .dark
        _ = cell.preferredHeight(forWidth: 200, measurer: measurer)
        #expect(sizing.calls == 3)
    }
}

/// Counts how often content views are asked for their size.
final class SizingCounter: @unchecked Sendable {
    var calls = 0
}

/// A configuration whose view has a fixed height and counts its sizing.
struct CountedConfiguration: ContentConfigurationFastPaths, Equatable, PropertyInspectable {
    var height: Double
    let counter: SizingCounter
    var typeIdentifier: String { "test.counted" }
    func makeContentView() -> any ContentView { CountedView(configuration: self) }
    func updated(for state: any ConfigurationState) -> Self { self }
    static let propertyTable = PropertyTable<CountedConfiguration>([])
    static func == (a: Self, b: Self) -> Bool { a.height == b.height && a.counter === b.counter }
}

final class CountedView: ContentView {
    var configuration: any ContentConfiguration
    init(configuration: CountedConfiguration) { self.configuration = configuration }
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size {
        let counted = configuration as? CountedConfiguration
        counted?.counter.calls += 1
        return Size(width: targetSize.width, height: counted?.height ?? 0)
    }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {}
}
