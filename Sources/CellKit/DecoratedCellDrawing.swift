/// Self-sizing and drawing of a cell with decorations: the content view at the width the
/// accessories leave it, and the accessories and open swipe actions around it
/// (`DecorationLayout`). Undecorated cells never come here.
extension ConfigurableView {
    /// The layout of the cell's decorations at `size`, with the context its content view lays
    /// out in (the content-side margins). Only while `hasDecorations`.
    func decorationLayout(size: Size, measurer: any TextMeasuring) -> (DecorationLayout, content: LayoutContext) {
        let context = layoutContext(measurer: measurer)
        let layout = DecorationLayout(decorations!, state: configurationState.cellState, size: size,
                                      margins: layoutMargins, context: context)
        var content = context
        content.superviewLayoutMargins = layout.contentMargins
        return (layout, content)
    }

    /// The content's height at the width the accessories leave, and at least the accessories'.
    func decoratedHeight(forWidth width: Double, measurer: any TextMeasuring) -> Double {
        let (layout, context) = decorationLayout(size: Size(width: width, height: 0), measurer: measurer)
        let content = contentView?.sizeThatFits(Size(width: layout.contentWidth, height: 0), context: context).height
            ?? layoutMargins.top + layoutMargins.bottom
        return max(content, layout.minimumHeight)
    }

    /// The accessories the other editing state shows and this one hides, where that state
    /// places them (drawn transparent, so both states record alike).
    private func accessoriesHiddenByEditing(shownIn layout: DecorationLayout, state: CellConfigurationState, size: Size,
                                            measurer: any TextMeasuring) -> [DecorationLayout.PlacedAccessory] {
        guard decorations!.accessories.contains(where: { $0.displayed != .always }) else { return [] }
        var other = state
        other.isEditing.toggle()
        let shown = Set(layout.accessories.map(\.index))
        return DecorationLayout(decorations!, state: other, size: size, margins: layoutMargins,
                                context: layoutContext(measurer: measurer))
            .accessories.filter { !shown.contains($0.index) }
    }

    /// Background, content view in its frame (slid with open swipe actions), accessories, the
    /// separators (automatic insets: from where the text starts), then the swipe buttons over
    /// the uncovered edge.
    func drawDecorated(size: Size, isLastInSection: Bool, measurer: any TextMeasuring, into list: inout DisplayList) {
        let (layout, contentContext) = decorationLayout(size: size, measurer: measurer)
        let traits = contentContext.traits
        let bounds = Rect(origin: .zero, size: size)
        drawBackground(in: bounds, traits: traits, into: &list)
        contentView?.draw(in: layout.contentFrame, context: contentContext, into: &list)
        let state = configurationState.cellState
        layout.drawAccessories(state: state, context: contentContext,
                               hidden: accessoriesHiddenByEditing(shownIn: layout, state: state, size: size, measurer: measurer),
                               into: &list)
        // The list's and the item's separator configuration, with automatic insets from the text.
        let textLeading = layout.contentLeading + (contentView?.separatorLeadingInset(width: layout.contentWidth, context: contentContext)
            ?? contentContext.superviewLayoutMargins.leading)
        drawSeparators(size: size, isLastInSection: isLastInSection, context: contentContext,
                       automaticLeading: min(size.width, max(0, textLeading)), into: &list)
        layout.drawSwipeActions(context: contentContext, into: &list)
    }
}
