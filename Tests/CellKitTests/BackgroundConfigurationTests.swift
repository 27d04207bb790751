import Testing
@testable import CellKit

@Suite struct BackgroundConfigurationTests {
    let light = TraitCollection.default
    let dark = TraitCollection(userInterfaceStyle: .dark)

    @Test func nilBackgroundColourIsTheTintAndTransformersApply() {
        var c = BackgroundConfiguration.clear()
        c.backgroundColor = nil
        #expect(c.resolvedBackgroundColor(for: .systemGreen) == .systemGreen)
        c.backgroundColorTransformer = .grayscale
        #expect(c.resolvedBackgroundColor(for: .systemGreen) == ColorTransformer.grayscale(.systemGreen))
        c.strokeColor = nil
        c.strokeColorTransformer = .faded
        #expect(c.resolvedStrokeColor(for: .systemRed).light.alpha == 0.25)
        c.strokeColor = .black
        #expect(c.resolvedStrokeColor(for: .systemRed).light == RGBA(red: 0, green: 0, blue: 0, alpha: 0.25))
    }

    @Test func clearBackgroundRecordsNothing() {
        var list = DisplayList()
        BackgroundConfiguration.clear().draw(in: Rect(x: 0, y: 0, width: 100, height: 44), traits: light, into: &list)
        #expect(list.isEmpty)
    }

    @Test func cornerRadiusShrinksToHalfTheShortSide() {
        var c = BackgroundConfiguration.listPlainCell()
        c.cornerRadius = 30
        #expect(c.effectiveCornerRadius(for: Size(width: 200, height: 20)) == 10)
        #expect(c.effectiveCornerRadius(for: Size(width: 200, height: 100)) == 30)
        var list = DisplayList()
        c.draw(in: Rect(x: 0, y: 0, width: 200, height: 20), traits: light, into: &list)
        #expect(list.commands == [.roundedRect(Rect(x: 0, y: 0, width: 200, height: 20), cornerRadius: 10,
                                               color: Color.systemBackground.resolved(with: light))])
    }

    @Test func negativeInsetsOutsetAndLayoutMarginsAddOnChosenEdges() {
        var c = BackgroundConfiguration.clear()
        c.backgroundInsets = DirectionalEdgeInsets(top: -4, leading: 2, bottom: -4, trailing: 0)
        let bounds = Rect(x: 0, y: 0, width: 100, height: 40)
        #expect(c.backgroundRect(in: bounds) == Rect(x: 2, y: -4, width: 98, height: 48))
        c.edgesAddingLayoutMarginsToBackgroundInsets = [.leading, .trailing]
        let margins = DirectionalEdgeInsets(top: 5, leading: 16, bottom: 5, trailing: 8)
        #expect(c.backgroundRect(in: bounds, layoutMargins: margins) == Rect(x: 18, y: -4, width: 74, height: 48))
        #expect(c.backgroundRect(in: bounds, layoutMargins: margins, direction: .rightToLeft)
            == Rect(x: 8, y: -4, width: 74, height: 48))
    }

    @Test func drawRecordsShadowBlurFillImageAndStrokeInOrder() {
        var c = BackgroundConfiguration.clear()
        c.backgroundColor = .white
        c.cornerRadius = 8
        c.visualEffect = VisualEffect(blurRadius: 10)
        c.image = Image(path: "/tmp/p.png", size: Size(width: 10, height: 10))
        c.imageContentMode = .scaleAspectFill
        c.strokeWidth = 2
        c.strokeOutset = 1
        c.strokeColor = .systemBlue
        c.shadowProperties.color = .black
        c.shadowProperties.opacity = 0.5
        c.shadowProperties.radius = 6
        c.shadowProperties.offset = Point(x: 0, y: 3)
        let r = Rect(x: 0, y: 0, width: 100, height: 50)
        var list = DisplayList()
        c.draw(in: r, traits: dark, into: &list)
        #expect(list.commands == [
            .shadow(r, cornerRadius: 8, radius: 6, offset: Point(x: 0, y: 3), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5)),
            .backgroundBlur(r, radius: 10, cornerRadius: 8),
            .roundedRect(r, cornerRadius: 8, color: .white),
            .pushClip(r, cornerRadius: 8),
            .image(path: "/tmp/p.png", frame: r, contentMode: .scaleAspectFill, tint: nil),
            .popClip,
            .stroke(r.insetBy(dx: -1, dy: -1), cornerRadius: 9, width: 2, color: Color.systemBlue.resolved(with: dark)),
        ])
    }

    @Test func customViewDrawsInsideTheBackgroundRect() {
        var c = BackgroundConfiguration.clear()
        c.backgroundInsets = DirectionalEdgeInsets(all: 5)
        c.customView = CustomBackgroundView(name: "stripe") { size, _ in
            DisplayList([.fill(Rect(x: 0, y: 0, width: size.width, height: 2), .black)])
        }
        var list = DisplayList()
        c.draw(in: Rect(x: 0, y: 0, width: 50, height: 30), traits: light, into: &list)
        #expect(list.commands.contains(.fill(Rect(x: 5, y: 5, width: 40, height: 2), .black)))
    }

    @Test func plainAndGroupedCellsHighlightInSystemGray4AndResolveForDarkMode() {
        for factory in [BackgroundConfiguration.listPlainCell, BackgroundConfiguration.listGroupedCell] {
            let normal = factory()
            let highlighted = normal.updated(for: CellConfigurationState(isHighlighted: true))
            let selected = normal.updated(for: CellConfigurationState(isSelected: true))
            #expect(highlighted.backgroundColor == .systemGray4 && selected.backgroundColor == .systemGray4)
            let lightFill = highlighted.resolvedBackgroundColor(for: .tintColor).resolved(with: light)
            let darkFill = highlighted.resolvedBackgroundColor(for: .tintColor).resolved(with: dark)
            #expect(lightFill != darkFill)
        }
        #expect(BackgroundConfiguration.listGroupedCell().backgroundColor == .secondarySystemGroupedBackground)
    }

    @Test func draggingCastsAShadowAndDropTargetFadesTheTint() {
        let dragged = BackgroundConfiguration.listPlainCell().updated(for: CellConfigurationState(cellDragState: .dragging))
        #expect(dragged.shadowProperties.isVisible && dragged.cornerRadius == 10)
        let target = BackgroundConfiguration.listPlainCell().updated(for: CellConfigurationState(cellDropState: .targeted))
        #expect(target.backgroundColor == nil && target.backgroundColorTransformer == .faded)
        // Leaving the state restores the defaults.
        #expect(target.updated(for: CellConfigurationState()) == BackgroundConfiguration.listPlainCell())
    }

    @Test func pinnedPlainHeaderGetsAMaterialBlur() {
        let header = BackgroundConfiguration.listPlainHeaderFooter()
        #expect(header.visualEffect == nil)
        #expect(header.updated(for: ViewConfigurationState(isPinned: true)).visualEffect == .systemMaterial)
    }

    @Test func iOS18FactoriesFollowTheListEnvironment() {
        func state(_ env: ListEnvironment) -> CellConfigurationState {
            CellConfigurationState(traitCollection: TraitCollection(listEnvironment: env), isSelected: true)
        }
        let cell = BackgroundConfiguration.listCell()
        #expect(cell.updated(for: state(.sidebar)).backgroundColor == nil)  // tint selection
        #expect(cell.updated(for: state(.insetGrouped)).backgroundColor == .systemGray4)
        let normalGrouped = cell.updated(for: CellConfigurationState(traitCollection: TraitCollection(listEnvironment: .grouped)))
        #expect(normalGrouped.backgroundColor == .secondarySystemGroupedBackground)
        let header = BackgroundConfiguration.listHeader()
        #expect(header.updated(for: state(.plain)).backgroundColor == .systemBackground)
        #expect(header.updated(for: state(.grouped)).backgroundColor == .clear)
        #expect(BackgroundConfiguration.listFooter().updated(for: state(.sidebar)).backgroundColor == .clear)
    }
}
