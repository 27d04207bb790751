import CellHostSDK

/// A list row with a title (a host ListContentView) and a count badge: the Swift sample plugin.
/// Its badge follows the state: grey normally, the tint when selected, red with "!" in the
/// custom "urgent" state, dimmed while highlighted, greyscale when disabled. Fonts and colours
/// come from the host's defaults for the current traits.
struct BadgeCell: PluginCell {
    typealias View = BadgeCellView

    static let typeIdentifier = "com.cellhost.samples.badge"
    static let displayName = "Badge cell"
    /// Every restyled value comes from the state and the set values alone.
    static let restyleIsPure = true
    static let properties: [CellProperty<BadgeCell>] = [
        .string("title", \.title),
        .int64("count", \.count),
        .color("badgeColor", \.badgeColor),
        .bool("showsZero", \.showsZero),
        .int64("layout", \.layout),
    ]
    static let actions: [CellAction<BadgeCell>] = [
        .action("increment", argument: "by") { (cell: inout BadgeCell, by: Int64) in
            guard by > 0 else {
                Host.log(.warning, "increment(by:) needs a positive step, got \(by)")
                return false
            }
            cell.count += by
            return true
        },
        .action("clear") { cell in
            cell.count = 0
            return true
        },
    ]

    /// Layouts: title and badge, or the badge alone. A view shows only its own layout.
    static let titleAndBadge: Int64 = 0, badgeOnly: Int64 = 1

    var title = "Inbox"
    var count: Int64 = 0
    var badgeColor = Host.systemColor("systemGray") ?? BadgeCell.fallbackGray
    /// What the badge shows when the host names no grey.
    static let fallbackGray = cellhost_color(red: 0.56, green: 0.56, blue: 0.58, alpha: 1)
    var showsZero = false
    var layout = BadgeCell.titleAndBadge
    // State styling, not properties.
    var isUrgent = false
    var badgeAlpha = 1.0
    var badgeTransformer: cellhost_color_transformer? = nil
    var state: cellhost_state? = nil

    init() {}

    func updated(for state: PluginState) -> BadgeCell {
        var cell = self
        let traits = state.traits
        cell.isUrgent = state.isOn("urgent")
        let name = cell.isUrgent ? "systemRed" : state.isSelected ? "tintColor" : "systemGray"
        cell.badgeColor = Host.systemColor(name, traits: traits) ?? BadgeCell.fallbackGray
        cell.badgeAlpha = state.isHighlighted ? 0.7 : 1
        cell.badgeTransformer = state.isDisabled ? Host.colorTransformer("grayscale") : nil
        cell.state = state.snapshot
        return cell
    }

    static func == (a: BadgeCell, b: BadgeCell) -> Bool {
        a.title == b.title && a.count == b.count && a.showsZero == b.showsZero && a.layout == b.layout
            && a.isUrgent == b.isUrgent && a.badgeAlpha == b.badgeAlpha && isSameTransformer(a.badgeTransformer, b.badgeTransformer)
            && a.badgeColor.red == b.badgeColor.red && a.badgeColor.green == b.badgeColor.green
            && a.badgeColor.blue == b.badgeColor.blue && a.badgeColor.alpha == b.badgeColor.alpha
            && sameState(a.state, b.state)
    }

    /// The title's look depends on the whole state snapshot (a text size change restyles it).
    private static func sameState(_ a: cellhost_state?, _ b: cellhost_state?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.hasSameFlagsAndTraits(as: b)
        default: false
        }
    }

    var badgeText: String? {
        guard count > 0 || showsZero else { return nil }
        let number = count > 99 ? "99+" : String(count)
        return isUrgent ? number + "!" : number
    }
}

final class BadgeCellView: PluginCellView {
    private let titleView = HostListView(style: "cell")
    /// Private storage: every access to it is in this file, so the compiler drops the run-time
    /// exclusivity checks that each read of a class's internal stored property would make.
    private var shown: BadgeCell
    var configuration: BadgeCell {
        get { shown }
        set { shown = newValue; applyTitle() }
    }

    init(configuration: BadgeCell) {
        shown = configuration
        applyTitle()
    }

    func supports(_ configuration: BadgeCell) -> Bool { configuration.layout == self.configuration.layout }

    private var showsTitle: Bool { configuration.layout == BadgeCell.titleAndBadge }

    private func applyTitle() {
        guard showsTitle else { return }
        titleView?.setContent(text: configuration.title, state: configuration.state)
    }

    private func badgeSize(_ context: DrawingContext) -> (text: String, font: cellhost_font, size: cellhost_size)? {
        guard let text = configuration.badgeText else { return nil }
        let font = Host.font(CELLHOST_TEXT_STYLE_FOOTNOTE, traits: context.traits)
        let metrics = context.measure(text, font: font, width: nil, lines: 1)
        let height = metrics.size.height + 4
        return (text, font, cellhost_size(width: max(height, metrics.size.width + 12), height: height))
    }

    func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size {
        let margins = Host.layoutMargins(traits: context.traits)
        let badge = badgeSize(context)?.size ?? cellhost_size()
        var height = badge.height + margins.top + margins.bottom
        if showsTitle, let titleView {
            let titleWidth = target.width - (badge.width > 0 ? badge.width + margins.trailing : 0)
            height = max(height, titleView.sizeThatFits(cellhost_size(width: titleWidth, height: 0), context: context).height)
        }
        return cellhost_size(width: target.width, height: height)
    }

    /// The badge sits at the trailing edge: the right in left-to-right text, the left in right-to-left.
    func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {
        let margins = Host.layoutMargins(traits: context.traits)
        let badge = badgeSize(context)
        let badgeWidth = badge.map { $0.size.width + margins.trailing } ?? 0
        let rightToLeft = context.traits.layout_direction == CELLHOST_RTL
        if showsTitle, let titleView {
            titleView.draw(in: cellhost_rect(bounds.x + (rightToLeft ? badgeWidth : 0), bounds.y,
                                             bounds.width - badgeWidth, bounds.height),
                           context: context, canvas: canvas)
        }
        guard let badge else { return }
        let x = rightToLeft ? bounds.x + margins.trailing : bounds.x + bounds.width - margins.trailing - badge.size.width
        let frame = cellhost_rect(x, bounds.y + (bounds.height - badge.size.height) / 2, badge.size.width, badge.size.height)
        let fill = configuration.badgeColor.transformed(by: configuration.badgeTransformer)
        canvas.pushAlpha(configuration.badgeAlpha)
        canvas.roundedRect(frame, cornerRadius: badge.size.height / 2, fill)
        let white = Host.systemColor("white") ?? cellhost_color(red: 1, green: 1, blue: 1, alpha: 1)
        canvas.text(badge.text, font: badge.font, color: white,
                    frame: cellhost_rect(frame.x, frame.y + 2, frame.width, frame.height - 4), alignment: 2)
        canvas.popAlpha()
    }
}

@_cdecl("cellhost_plugin_entry")
public func cellhostPluginEntry() -> UnsafeRawPointer {
    export(BadgeCell.self, plugin: "com.cellhost.samples.badges", name: "Badges", version: "1.0.0",
           vendor: "cellhost samples", description: "A list row with a count badge, written in Swift with CellHostSDK.")
}
