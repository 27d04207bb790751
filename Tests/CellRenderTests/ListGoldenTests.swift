import CellKit
import Testing
@testable import CellRender

/// Lists of real cells (CellKit's configurations and update cycle) through the compositor, one
/// layer per row: every list appearance in light and dark at three text sizes, and the sidebar
/// cell of the WWDC talk in its seven demo states.
@Suite struct ListGoldenTests {
    static let width = 320.0
    static let scale = 2

    /// A section: header, four rows of different styles, footer, laid out top to bottom the way
    /// the list would, each row in its own layer.
    static func renderList(_ appearance: ListAppearance, style: UserInterfaceStyle, size: ContentSizeCategory) -> RasterImage {
        let traits = TraitCollection(userInterfaceStyle: style, preferredContentSizeCategory: size,
                                     listEnvironment: appearance.listEnvironment)
        let engine = Fixtures.engine
        let header = HeaderFooterView(role: .header, appearance: appearance, traits: traits)
        var headerContent = header.defaultContentConfiguration()
        headerContent.text = "Library"
        header.contentConfiguration = headerContent
        let footer = HeaderFooterView(role: .footer, appearance: appearance, traits: traits)
        var footerContent = footer.defaultContentConfiguration()
        footerContent.text = "Items sync across your devices when you are signed in."
        footer.contentConfiguration = footerContent

        let rows: [(String, String?, String)] = [
            ("Inbox", "12", "tray"), ("Favourites", nil, "star.fill"),
            ("Documents with a long name that has to wrap or truncate", nil, "folder"), ("Trash", "3", "trash"),
        ]
        let cells = rows.enumerated().map { i, row -> Cell in
            let cell = Cell(appearance: appearance, traits: traits)
            var content = cell.defaultContentConfiguration()
            content.text = row.0
            content.secondaryText = row.1
            content.image = Image(systemName: row.2)
            cell.contentConfiguration = content
            if i == 1 { cell.isSelected = true }
            return cell
        }

        let inset = appearance.rowInset
        let rowWidth = width - 2 * inset
        var y = 0.0
        var placed: [(frame: Rect, list: DisplayList)] = []
        let headerHeight = header.preferredHeight(forWidth: width, measurer: engine)
        var headerList = DisplayList()
        header.draw(size: Size(width: width, height: headerHeight), measurer: engine, into: &headerList)
        placed.append((Rect(x: 0, y: y, width: width, height: headerHeight), headerList))
        y += headerHeight
        let heights = cells.map { $0.preferredHeight(forWidth: rowWidth, measurer: engine) }
        let section = Rect(x: 0, y: 0, width: rowWidth, height: heights.reduce(0, +))
        var sectionTop = 0.0
        for (cell, height) in zip(cells, heights) {
            var list = DisplayList()
            let clip = appearance.sectionCornerRadius > 0
                ? (rect: section.offsetBy(dx: 0, dy: -sectionTop), cornerRadius: appearance.sectionCornerRadius) : nil
            cell.draw(size: Size(width: rowWidth, height: height), measurer: engine, clip: clip, into: &list)
            placed.append((Rect(x: inset, y: y, width: rowWidth, height: height), list))
            y += height
            sectionTop += height
        }
        let footerHeight = footer.preferredHeight(forWidth: width, measurer: engine)
        var footerList = DisplayList()
        footer.draw(size: Size(width: width, height: footerHeight), measurer: engine, into: &footerList)
        placed.append((Rect(x: 0, y: y, width: width, height: footerHeight), footerList))
        y += footerHeight

        let background: Color = switch appearance {
        case .plain, .sidebarPlain: .systemBackground
        case .grouped, .insetGrouped, .sidebar: .systemGroupedBackground
        }
        let compositor = Compositor(viewport: Size(width: width, height: y.rounded(.up)), scale: scale,
                                    background: background.resolved(with: traits), textEngine: engine)
        for (i, item) in placed.enumerated() { compositor.setLayer(i, frame: item.frame, content: item.list) }
        let report = compositor.renderFrame()
        #expect(report.problems.isEmpty, "\(report.problems)")
        return compositor.snapshot()
    }

    @Test(arguments: ListAppearance.allCases)
    func appearanceInLightAndDarkAtThreeTextSizes(appearance: ListAppearance) {
        for style in UserInterfaceStyle.allCases {
            for size in [ContentSizeCategory.small, .large, .accessibilityLarge] {
                let image = Self.renderList(appearance, style: style, size: size)
                Goldens.check(image, "list-\(appearance.rawValue)-\(style.rawValue)-\(size.shortName)")
            }
        }
    }

    enum DemoState: String, CaseIterable {
        case normal, highlighted, selected, highlightedSelected, disabled, disabledSelected, dropTarget
    }

    @Test(arguments: DemoState.allCases)
    func sidebarCellDemoState(_ state: DemoState) {
        Goldens.check(Self.renderSidebarCell(state), "sidebar-cell-\(state.rawValue)")
    }

    @Test func sevenDemoStatesLookDistinct() {
        let images = DemoState.allCases.map { Self.renderSidebarCell($0) }
        for i in images.indices {
            for j in images.indices where j > i {
                #expect(images[i].differingPixelCount(to: images[j], tolerance: 8) > 100,
                        "\(DemoState.allCases[i]) and \(DemoState.allCases[j]) render alike")
            }
        }
    }

    static func renderSidebarCell(_ state: DemoState) -> RasterImage {
        let traits = TraitCollection(listEnvironment: .sidebar)
        let cell = Cell(appearance: .sidebar, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = "Documents"
        content.image = Image(systemName: "folder")
        cell.contentConfiguration = content
        switch state {
        case .normal: break
        case .highlighted: cell.isHighlighted = true
        case .selected: cell.isSelected = true
        case .highlightedSelected: cell.isHighlighted = true; cell.isSelected = true
        case .disabled: cell.isDisabled = true
        case .disabledSelected: cell.isDisabled = true; cell.isSelected = true
        case .dropTarget: cell.cellDropState = .targeted
        }
        let height = cell.preferredHeight(forWidth: 280, measurer: Fixtures.engine)
        var list = DisplayList()
        cell.draw(size: Size(width: 280, height: height), measurer: Fixtures.engine, into: &list)
        return Fixtures.render(list, size: Size(width: 280, height: height), scale: scale,
                               background: Color.systemGroupedBackground.resolved(with: traits))
    }
}
