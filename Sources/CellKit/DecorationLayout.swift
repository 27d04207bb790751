/// Where a decorated cell (one with accessories or swipe actions) puts its accessories, its
/// content view and its open swipe actions, for one size and state. Pure function of the
/// decorations, the state's editing/selected/expanded flags, the size, margins and traits, so
/// self-sizing and drawing agree.
///
/// UIKit's rules: accessories sit inside the cell's layout margins, in the array's order from
/// leading to trailing on each edge, each centred vertically in the width it reserves; the
/// content view spans what is left between them, so leading accessories shift the content (and
/// the separator, which follows the text) and trailing ones narrow it. Right to left mirrors
/// everything. Open swipe actions slide the content, its background and accessories by the
/// buttons' total width and fill the uncovered edge with full-height buttons, the first action
/// outermost. A full swipe slides them off the row, and the first action's button spans it,
/// its title and image at the end the swipe came from (where the finger is).
public struct DecorationLayout: Sendable {
    public struct PlacedAccessory: Sendable {
        public var accessory: CellAccessory
        /// Its position in the decorations' accessories.
        public var index: Int
        /// The reserved area (row height), in view coordinates.
        public var slot: Rect
        /// Where the accessory itself is drawn, centred in `slot`.
        public var frame: Rect
    }

    public struct PlacedSwipeAction: Sendable {
        public var action: SwipeAction
        public var frame: Rect
        /// Where its image and title are centred: the button, or for a full swipe the button's
        /// own width at the inner end of the row-wide fill.
        public var labelFrame: Rect
    }

    /// Shown accessories, in the order of the decorations' list.
    public var accessories: [PlacedAccessory]
    /// Where the content view is laid out and drawn (view coordinates, slid when swiped).
    public var contentFrame: Rect
    /// The superview margins the content view lays out with: the cell's, except the side next
    /// to accessories, where the content keeps only the spacing to them.
    public var contentMargins: DirectionalEdgeInsets
    /// The logical (leading-based) x of the content view, for the separator.
    public var contentLeading: Double
    public var swipeActions: [PlacedSwipeAction]
    /// Horizontal offset of the cell's background, content and accessories (view points).
    public var slide: Double
    /// The height the accessories need with the cell's vertical margins.
    public var minimumHeight: Double
    /// Accessories are scaled with the body text size (capped), as UIKit scales its symbols.
    public var scale: Double

    /// Space between two accessories on one edge.
    static let accessorySpacing = 10.0
    /// Space between the content view's text and a leading / trailing accessory.
    static let leadingContentSpacing = 16.0
    static let trailingContentSpacing = 10.0
    static let swipeButtonMinimumWidth = 74.0
    static let swipeButtonPadding = 15.0

    public init(_ decorations: CellDecorations, state: CellConfigurationState, size: Size,
                margins: DirectionalEdgeInsets, context: LayoutContext) {
        let traits = context.traits
        let width = size.width, height = size.height
        let rtl = traits.layoutDirection == .rightToLeft
        let scale = min(2, TextStyle.body.pointSize(for: traits.preferredContentSizeCategory) / 17)
        self.scale = scale
        func visual(_ r: Rect) -> Rect { rtl ? r.mirrored(inWidth: width) : r }

        // Accessories, logical x from the leading edge.
        let all = decorations.accessories
        let shown = all.indices.filter { all[$0].isShown(editing: state.isEditing) }
        var placed: [(index: Int, x: Double, slotWidth: Double, ink: Size)] = []
        var tallest = 0.0
        var leadingEnd: Double?
        var x = margins.leading
        for i in shown where all[i].placement == .leading {
            let a = all[i]
            let m = AccessoryMetrics(a, scale: scale, context: context)
            let w = m.reservedWidth(a.reservedLayoutWidth)
            placed.append((i, x, w, m.ink))
            tallest = max(tallest, m.ink.height)
            leadingEnd = x + w
            x += w + DecorationLayout.accessorySpacing
        }
        var trailingStart: Double?
        x = width - margins.trailing
        for i in shown.reversed() where all[i].placement == .trailing {
            let a = all[i]
            let m = AccessoryMetrics(a, scale: scale, context: context)
            let w = m.reservedWidth(a.reservedLayoutWidth)
            placed.append((i, x - w, w, m.ink))
            tallest = max(tallest, m.ink.height)
            trailingStart = x - w
            x -= w + DecorationLayout.accessorySpacing
        }
        placed.sort { $0.index < $1.index }

        var contentMargins = margins
        let contentStart = leadingEnd ?? 0
        let contentEnd = trailingStart ?? width
        if leadingEnd != nil { contentMargins.leading = DecorationLayout.leadingContentSpacing }
        if trailingStart != nil { contentMargins.trailing = DecorationLayout.trailingContentSpacing }
        self.contentMargins = contentMargins
        contentLeading = contentStart
        minimumHeight = tallest > 0 ? tallest + margins.top + margins.bottom : 0

        // Swipe actions, logical x.
        var buttons: [PlacedSwipeAction] = []
        let edge = decorations.openSwipeEdge
        let actions = decorations.swipeActions(for: edge)
        var logicalSlide = 0.0
        if !actions.isEmpty {
            let font = SwipeActionMetrics.titleFont(traits)
            var offset = 0.0
            if decorations.isFullSwipe, let first = actions.first {
                let w = SwipeActionMetrics.width(of: first, font: font, context: context)
                let label = Rect(x: edge == .trailing ? 0 : width - w, y: 0, width: w, height: height)
                buttons.append(PlacedSwipeAction(action: first, frame: Rect(x: 0, y: 0, width: width, height: height),
                                                 labelFrame: visual(label)))
                offset = width
            } else {
                for action in actions {
                    let w = SwipeActionMetrics.width(of: action, font: font, context: context)
                    let logical = edge == .trailing
                        ? Rect(x: width - offset - w, y: 0, width: w, height: height)
                        : Rect(x: offset, y: 0, width: w, height: height)
                    buttons.append(PlacedSwipeAction(action: action, frame: visual(logical), labelFrame: visual(logical)))
                    offset += w
                }
            }
            logicalSlide = edge == .trailing ? -offset : offset
        }
        swipeActions = buttons
        slide = rtl ? -logicalSlide : logicalSlide

        contentFrame = visual(Rect(x: contentStart + logicalSlide, y: 0, width: max(0, contentEnd - contentStart), height: height))
        accessories = placed.map { i, x, slotWidth, ink in
            let slot = visual(Rect(x: x + logicalSlide, y: 0, width: slotWidth, height: height))
            let frame = Rect(x: (slot.midX - ink.width / 2).rounded(), y: ((height - ink.height) / 2).rounded(),
                             width: ink.width, height: ink.height)
            return PlacedAccessory(accessory: all[i], index: i, slot: slot, frame: frame)
        }
    }

    /// The content view's width at a row `width` (self-sizing asks before any height is known).
    public var contentWidth: Double { contentFrame.width }
}

/// An accessory's drawn size and standard reserved width, at a scale.
struct AccessoryMetrics {
    var ink: Size
    var standardWidth: Double

    init(_ a: CellAccessory, scale f: Double, context: LayoutContext) {
        func square(_ side: Double, standard: Double) -> (Size, Double) {
            (Size(width: (side * f).rounded(), height: (side * f).rounded()), (standard * f).rounded())
        }
        switch a.kind {
        case .disclosureIndicator: (ink, standardWidth) = (Size(width: (8 * f).rounded(), height: (15 * f).rounded()), (10 * f).rounded())
        case .outlineDisclosure: (ink, standardWidth) = square(15, standard: 16)
        case .checkmark: (ink, standardWidth) = square(15, standard: 16)
        case .delete, .insert, .multiselect, .detail: (ink, standardWidth) = square(22, standard: 22)
        case .reorder: (ink, standardWidth) = (Size(width: (18 * f).rounded(), height: (12 * f).rounded()), (22 * f).rounded())
        case .label(let text):
            let metrics = context.textMeasurer.measure(
                TextLayoutRequest(text: text, font: AccessoryMetrics.labelFont(context.traits), numberOfLines: 1,
                                  layoutDirection: context.traits.layoutDirection), width: nil)
            ink = Size(width: metrics.size.width.rounded(.up), height: metrics.size.height.rounded(.up))
            standardWidth = ink.width
        case .customView(_, let size):
            ink = size
            standardWidth = size.width
        }
    }

    func reservedWidth(_ width: CellAccessory.LayoutWidth) -> Double {
        switch width {
        case .standard: max(standardWidth, ink.width)
        case .actual: ink.width
        case .custom(let w): w
        }
    }

    /// The label accessory's font: body, as UIKit's.
    static func labelFont(_ traits: TraitCollection) -> Font {
        .preferredFont(forTextStyle: .body, category: traits.preferredContentSizeCategory)
    }
}

/// Swipe action buttons: at least a standard width, else their title's (or image's) width
/// with padding; titles in a medium subheadline font.
enum SwipeActionMetrics {
    static func titleFont(_ traits: TraitCollection) -> Font {
        Font.preferredFont(forTextStyle: .subheadline, category: traits.preferredContentSizeCategory).withWeight(.medium)
    }

    /// The image above a title: a standard side at the Large text size, scaling with the title
    /// (capped, as the accessories are).
    static func imageSide(_ traits: TraitCollection) -> Double {
        (22 * min(2, TextStyle.subheadline.pointSize(for: traits.preferredContentSizeCategory) / 15)).rounded()
    }

    static func width(of action: SwipeAction, font: Font, context: LayoutContext) -> Double {
        var content = action.image != nil ? imageSide(context.traits) : 0
        if let title = action.title {
            let m = context.textMeasurer.measure(TextLayoutRequest(text: title, font: font, numberOfLines: 1,
                                                                   layoutDirection: context.traits.layoutDirection), width: nil)
            content = max(content, m.size.width.rounded(.up))
        }
        return max(DecorationLayout.swipeButtonMinimumWidth, content + 2 * DecorationLayout.swipeButtonPadding)
    }
}
