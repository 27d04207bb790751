import CellKit
import Testing
@testable import CellRender

/// Lists of real cells (CellKit's configurations and update cycle) through the compositor, one
/// layer per row: every list appearance in light and dark at three text sizes, and the sidebar
/// cell of the WWDC talk in its seven demo states.
@Suite struct ListGoldenTests {
    static let width = 320.0
    static let scale = 2

    static let rows: [(text: String, secondary: String?, symbol: String)] = [
        ("Inbox", "12", "tray"), ("Favourites", nil, "star.fill"),
        ("Documents with a long name that has to wrap or truncate", nil, "folder"), ("Trash", "3", "trash"),
    ]

    /// A `ListView` with one section (header, four rows of different content, footer), every row
    /// measured and drawn by CellKit, each in its own compositor layer.
    static func renderList(_ appearance: ListAppearance, style: UserInterfaceStyle, size: ContentSizeCategory,
                           horizontalSizeClass: UserInterfaceSizeClass = .compact, level: UserInterfaceLevel = .base,
                           legibility: LegibilityWeight = .regular, idiom: UserInterfaceIdiom = .phone,
                           contrast: AccessibilityContrast = .normal, width: Double = width) -> RasterImage {
        let traits = TraitCollection(userInterfaceStyle: style, preferredContentSizeCategory: size,
                                     horizontalSizeClass: horizontalSizeClass, accessibilityContrast: contrast,
                                     userInterfaceLevel: level,
                                     legibilityWeight: legibility, userInterfaceIdiom: idiom)
        let engine = Fixtures.engine
        let list = ListView(appearance: appearance, width: width, viewportHeight: 10_000,
                            sections: [ListSectionShape(itemCount: rows.count, hasHeader: true, hasFooter: true)],
                            traits: traits, measurer: engine,
                            configureCell: { cell, path in
                                var content = cell.defaultContentConfiguration()
                                let row = rows[path.item]
                                content.text = row.text
                                content.secondaryText = row.secondary
                                content.image = Image(systemName: row.symbol)
                                cell.contentConfiguration = content
                                cell.isSelected = path.item == 1
                            },
                            configureHeaderFooter: { view, _ in
                                var content = view.defaultContentConfiguration()
                                content.text = view.role == .header ? "Library" : "Items sync across your devices when you are signed in."
                                view.contentConfiguration = content
                            })
        list.measureAllRows()
        list.viewportHeight = list.layout.contentHeight
        list.layoutVisibleRows()
        let background: Color = switch appearance {
        case .plain, .sidebarPlain: .systemBackground
        case .grouped, .insetGrouped, .sidebar: .systemGroupedBackground
        }
        let compositor = Compositor(viewport: Size(width: width, height: list.layout.contentHeight.rounded(.up)), scale: scale,
                                    background: background.resolved(with: list.traits), textEngine: engine)
        for (i, row) in list.visibleRows.enumerated() {
            guard let frame = list.layout.frame(of: row), let content = list.draw(row) else {
                Issue.record("row \(row) is visible but has no live view")
                continue
            }
            compositor.setLayer(i, frame: frame, content: content)
        }
        #expect(list.visibleRows.count == rows.count + 2)
        let report = compositor.renderFrame()
        #expect(report.problems.isEmpty, "\(report.problems)")
        return compositor.snapshot()
    }

    @Test(arguments: ListAppearance.allCases)
    func appearanceInLightAndDarkAtThreeTextSizes(appearance: ListAppearance) {
        for style in UserInterfaceStyle.allCases {
            for size in [ContentSizeCategory.small, .large, .accessibilityLarge] {
                let image = Self.renderList(appearance, style: style, size: size)
                goldens.check(image, "list-\(appearance.rawValue)-\(style.rawValue)-\(size.shortName)")
            }
        }
    }

    /// A regular width: cells' side margins are 20 points, so text, images and separators start
    /// further in than at a compact width.
    @Test func regularWidthWidensMargins() {
        let image = Self.renderList(.plain, style: .light, size: .large, horizontalSizeClass: .regular, width: 480)
        goldens.check(image, "list-plain-light-L-regular-width")
    }

    /// The elevated level in dark mode: lighter grouped backgrounds behind and in the section.
    @Test func elevatedLevelLightensDarkBackgrounds() {
        goldens.check(Self.renderList(.insetGrouped, style: .dark, size: .large, level: .elevated), "list-insetGrouped-dark-L-elevated")
    }

    /// Bold Text: every text style of the list drawn one weight heavier.
    @Test func boldTextDrawsHeavierText() {
        goldens.check(Self.renderList(.insetGrouped, style: .light, size: .large, legibility: .bold), "list-insetGrouped-light-L-bold-text")
    }

    /// A pad at a regular width: the inset-grouped section keeps to the readable content width,
    /// centred, where a phone's would run to 20 points from each edge.
    @Test func padKeepsInsetGroupedSectionsToTheReadableWidth() {
        let width = 900.0
        let image = Self.renderList(.insetGrouped, style: .light, size: .large, horizontalSizeClass: .regular,
                                    idiom: .pad, width: width)
        goldens.check(image, "list-insetGrouped-light-L-pad-regular")
        let inset = Int((width - ListAppearance.readableContentWidth) / 2) * Self.scale
        let middle = image.height / 2
        #expect(image.rgba(x: inset - 4, y: middle) != image.rgba(x: inset + 4, y: middle),
                "the section's edge sits at the readable width's edge")
        #expect(image.rgba(x: 20 * Self.scale + 4, y: middle) == image.rgba(x: 2, y: middle),
                "where a phone's section starts, a pad shows the grouped background")
    }

    /// Increased contrast: the selected row's systemGray4 background is the darker accessible gray.
    @Test func increasedContrastDarkensTheSelectedGray() {
        goldens.check(Self.renderList(.insetGrouped, style: .light, size: .large, contrast: .high), "list-insetGrouped-light-L-high-contrast")
    }

    enum DemoState: String, CaseIterable {
        case normal, highlighted, selected, highlightedSelected, disabled, disabledSelected, dropTarget
    }

    @Test(arguments: DemoState.allCases)
    func sidebarCellDemoState(_ state: DemoState) {
        goldens.check(Self.renderSidebarCell(state), "sidebar-cell-\(state.rawValue)")
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
