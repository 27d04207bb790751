import Testing
@testable import CellKit

/// A configuration written against `ContentConfiguration` alone — `makeContentView()` and
/// `updated(for:)`, nothing else — goes through a cell's whole update cycle as UIKit's does:
/// its view is created, restyled on highlight, reused while it supports the value, replaced when
/// another type is set, sized and drawn; traces still name and list it.
@Suite struct CoreProtocolConfigurationTests {
    let measurer = FixedAdvanceTextMeasurer()

    @Test func aCellCreatesRestylesReusesAndReplacesItsView() throws {
        let cell = Cell()
        cell.contentConfiguration = Swatch(fill: .systemBlue)
        let created = try #require(cell.updateConfigurationIfNeeded())
        #expect(created.viewAction == .created)
        let view = try #require(cell.contentView as? SwatchView)
        #expect(view.swatch.fill == .systemBlue && !view.swatch.isPressed)

        cell.isHighlighted = true
        let highlighted = try #require(cell.updateConfigurationIfNeeded())
        #expect(highlighted.viewAction == .reused && highlighted.supportsAnswer == true)
        #expect(cell.contentView === view, "a supported value reuses the view")
        #expect(view.swatch.isPressed, "updated(for:) restyled the value the view took")
        #expect(view.applied == 2)

        cell.contentConfiguration = Swatch(fill: .systemRed)
        #expect(try #require(cell.updateConfigurationIfNeeded()).viewAction == .reused)
        #expect(cell.contentView === view && view.swatch.fill == .systemRed)
        #expect(view.swatch.isPressed, "a value set on a highlighted cell looks highlighted")

        cell.contentConfiguration = Stripe()
        let replaced = try #require(cell.updateConfigurationIfNeeded())
        #expect(replaced.viewAction == .replaced && replaced.supportsAnswer == false)
        #expect(cell.contentView is StripeView)

        cell.contentConfiguration = nil
        #expect(try #require(cell.updateConfigurationIfNeeded()).viewAction == .removed)
        #expect(cell.contentView == nil)
    }

    /// Not `Equatable`, so never known equal: every pass hands the view the value again, which
    /// is what UIKit does.
    @Test func everyPassAppliesAValueThatCannotBeCompared() throws {
        let cell = Cell()
        cell.contentConfiguration = Swatch(fill: .systemBlue)
        cell.updateConfigurationIfNeeded()
        let view = try #require(cell.contentView as? SwatchView)
        for n in 1...3 {
            cell.setNeedsUpdateConfiguration()
            cell.updateConfigurationIfNeeded()
            #expect(view.applied == 1 + n)
        }
        #expect(!Swatch(fill: .systemBlue).isEqual(to: Swatch(fill: .systemBlue)))
    }

    @Test func itIsSizedAndDrawnInItsState() throws {
        let cell = Cell()
        cell.contentConfiguration = Swatch(fill: .systemBlue)
        let height = cell.preferredHeight(forWidth: 200, measurer: measurer)
        #expect(height == Swatch.height)
        let size = Size(width: 200, height: height)
        func drawnFills() -> [Color] {
            var list = DisplayList()
            cell.draw(size: size, measurer: measurer, into: &list)
            return list.commands.compactMap {
                if case .fill(let rect, let color) = $0, rect == Rect(origin: .zero, size: size).insetBy(dx: 8, dy: 8) { color }
                else { nil }
            }
        }
        #expect(drawnFills() == [Color.systemBlue.resolved(with: cell.traitCollection)])
        cell.isHighlighted = true
        #expect(drawnFills() == [Color.systemBlue.resolved(with: cell.traitCollection).withAlphaComponent(0.5)])

        var list = DisplayList()
        cell.draw(size: size, measurer: measurer, into: &list)
        cell.isHighlighted = false
        #expect(cell.redrawBackground(size: size, measurer: measurer, updating: &list) == nil,
                "a view without the drawing hint is recorded afresh")
    }

    @Test func tracesNameAndListItByDefault() throws {
        let cell = Cell()
        cell.contentConfiguration = Swatch(fill: .systemBlue)
        #expect(cell.contentTypeIdentifier == String(reflecting: Swatch.self))
        cell.updateConfigurationIfNeeded()
        cell.isHighlighted = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        let changes = update.contentChanges(setByEvent: []).filter { $0.reason != .unchanged }
        #expect(changes.map(\.name) == ["isPressed"])
        #expect(changes.first?.reason == .restyledByState)
        #expect(changes.first?.oldValue == .bool(false) && changes.first?.newValue == .bool(true))
        #expect(Swatch(fill: .systemBlue).inspectableProperties
            == [InspectableProperty(name: "fill", value: .color(.systemBlue), isCustomized: false),
                InspectableProperty(name: "isPressed", value: .bool(false), isCustomized: false)])

        #expect(throws: ConfigurationPropertyError.unknownProperty("fill", typeIdentifier: String(reflecting: Swatch.self))) {
            try Swatch(fill: .systemBlue).setting("fill", to: .color(.systemRed))
        }
        #expect(throws: ConfigurationPropertyError.unknownAction("press", typeIdentifier: String(reflecting: Swatch.self))) {
            try Swatch(fill: .systemBlue).performing("press", arguments: [])
        }
    }
}

/// A coloured square that fades while pressed: the two requirements and nothing else.
struct Swatch: ContentConfiguration {
    static let height = 44.0
    var fill: Color
    var isPressed = false

    func makeContentView() -> any ContentView { SwatchView(self) }

    func updated(for state: any ConfigurationState) -> Swatch {
        var copy = self
        copy.isPressed = state.cellState.isHighlighted
        return copy
    }
}

final class SwatchView: ContentView {
    private(set) var swatch: Swatch
    /// How many values it was given (made with one).
    private(set) var applied = 1

    init(_ swatch: Swatch) { self.swatch = swatch }

    var configuration: any ContentConfiguration {
        get { swatch }
        set {
            if let new = newValue as? Swatch { swatch = new }
            applied += 1
        }
    }

    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: Swatch.height) }

    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        let color = swatch.fill.resolved(with: context.traits)
        list.append(.fill(bounds.insetBy(dx: 8, dy: 8), swatch.isPressed ? color.withAlphaComponent(0.5) : color))
    }
}

/// Another type, so setting it replaces the view.
struct Stripe: ContentConfiguration {
    func makeContentView() -> any ContentView { StripeView() }
    func updated(for state: any ConfigurationState) -> Stripe { self }
}

final class StripeView: ContentView {
    var configuration: any ContentConfiguration = Stripe()
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: 2) }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {}
}
