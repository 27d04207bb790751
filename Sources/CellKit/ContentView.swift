/// A view that renders a content configuration (UIKit's `UIContentView`): it holds the applied
/// `configuration` and says whether it `supports` another, so a cell reuses it or builds a new
/// one. The host also needs it to size itself and record its drawing. Hints that let a cell
/// skip re-recording live in the opt-in refinement `ContentViewFastPaths`.
public protocol ContentView: AnyObject {
    /// The applied configuration. Setting it applies the new one at once (no second set needed).
    var configuration: any ContentConfiguration { get set }

    /// Whether this view can take `configuration` (reuse) or the cell must build a new view
    /// (replace). The default is "same configuration type" (iOS 16 semantics).
    func supports(_ configuration: any ContentConfiguration) -> Bool

    /// Self-sizing: the size the content wants at `targetSize.width` (height is computed; UIKit's
    /// `systemLayoutSizeFitting` with required horizontal, fitting vertical priority).
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size

    /// Records the drawing of the current configuration into `list`, in view coordinates with
    /// the view's bounds at the origin.
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList)

    /// Where the row's separator starts, measured from the leading edge at `width` (UIKit's
    /// `separatorLayoutGuide`: aligned with the text). Nil (the default): the cell's leading
    /// layout margin.
    func separatorLeadingInset(width: Double, context: LayoutContext) -> Double?
}

extension ContentView {
    public func separatorLeadingInset(width: Double, context: LayoutContext) -> Double? { nil }

    public func supports(_ configuration: any ContentConfiguration) -> Bool {
        type(of: configuration) == type(of: self.configuration)
            && configuration.typeIdentifier == self.configuration.typeIdentifier
    }
}
