import Testing
@testable import CellKit

@Suite struct ListContentViewTests {
    let context = LayoutContext(traits: TraitCollection(userInterfaceStyle: .dark), textMeasurer: FixedAdvanceTextMeasurer())

    @Test func drawsFromItsInitialConfiguration() {
        var c = ListContentConfiguration.groupedHeader()
        c.text = "Settings"
        c.image = Image(systemName: "gear")
        let view = ListContentView(configuration: c)
        let size = view.sizeThatFits(Size(width: 390, height: 0), context: context)
        var list = DisplayList()
        view.draw(in: Rect(origin: .zero, size: size), context: context, into: &list)
        guard case .symbol(let name, _, let pointSize, _, let tint) = list.commands.first else {
            Issue.record("no symbol in \(list.commands)"); return
        }
        #expect(name == "gear" && pointSize == 13)
        #expect(tint == Color.tintColor.resolved(with: context.traits))
        guard case .text(let run) = list.commands.last else { Issue.record("no text"); return }
        #expect(run.text == "SETTINGS")
        #expect(run.color == Color.secondaryLabel.resolved(with: context.traits))
        #expect(!run.color.isDynamic)
    }

    @Test func alphaWrapsTheDrawingAndZeroAlphaDrawsNothing() {
        var c = ListContentConfiguration.cell()
        c.text = "Faded"
        c.alpha = 0.4
        let view = ListContentView(configuration: c)
        var list = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 200, height: 43), context: context, into: &list)
        #expect(list.commands.first == .pushAlpha(0.4) && list.commands.last == .popAlpha)
        c.alpha = 0
        view.configuration = c
        var empty = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 200, height: 43), context: context, into: &empty)
        #expect(empty.isEmpty)
    }

    @Test func drawingOffsetsByTheBoundsOriginAndFollowsNewConfigurations() {
        var c = ListContentConfiguration.cell()
        c.text = "A"
        let view = ListContentView(configuration: c)
        var list = DisplayList()
        view.draw(in: Rect(x: 10, y: 100, width: 200, height: 44), context: context, into: &list)
        guard case .text(let run) = list.commands.first else { Issue.record("no text"); return }
        #expect(run.frame.minX == 26 && run.frame.minY == 111.5)  // a 21-point line centred in the 44-point row
        c.text = "B"
        view.configuration = c
        var second = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 200, height: 43), context: context, into: &second)
        guard case .text(let again) = second.commands.first else { Issue.record("no text"); return }
        #expect(again.text == "B")
    }

    @Test func supportsOnlyListContentConfigurations() {
        let view = ListContentConfiguration.cell().makeContentView()
        #expect(view.supports(ListContentConfiguration.sidebarCell()))
        #expect(!view.supports(ForeignConfiguration()))
        view.configuration = ForeignConfiguration()
        #expect(view.configuration is ListContentConfiguration)
    }
}

/// A configuration of another type, to check that list content views refuse it.
struct ForeignConfiguration: ContentConfiguration, Equatable, PropertyInspectable {
    var typeIdentifier: String { "test.foreign" }
    func makeContentView() -> any ContentView { ForeignView(configuration: self) }
    func updated(for state: any ConfigurationState) -> Self { self }
    static let propertyTable = PropertyTable<ForeignConfiguration>([])
}

final class ForeignView: ContentView {
    var configuration: any ContentConfiguration
    init(configuration: ForeignConfiguration) { self.configuration = configuration }
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: 10) }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        list.append(.fill(bounds, .black))
    }
}
