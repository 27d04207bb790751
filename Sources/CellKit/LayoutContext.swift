/// What a content view needs from its surroundings to lay out and draw.
public struct LayoutContext: Sendable {
    public var traits: TraitCollection
    public var textMeasurer: any TextMeasuring
    /// The colour `nil` tints resolve to (the view's `tintColor`).
    public var tintColor: Color
    /// The layout margins of the view that holds the content view (the cell's), which win on the
    /// axes a configuration preserves (`axesPreservingSuperviewLayoutMargins`).
    public var superviewLayoutMargins: DirectionalEdgeInsets

    public init(traits: TraitCollection, textMeasurer: any TextMeasuring, tintColor: Color = .tintColor,
                superviewLayoutMargins: DirectionalEdgeInsets = .zero) {
        self.traits = traits
        self.textMeasurer = textMeasurer
        self.tintColor = tintColor
        self.superviewLayoutMargins = superviewLayoutMargins
    }
}
