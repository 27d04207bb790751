/// A hint a content view may give a cell so that a redraw for a new background (a highlight)
/// re-records only the background. Optional, and it changes no frame: without it a cell records
/// the view afresh every time. A cell looks the adoption up once, when it makes the view.
public protocol ContentViewFastPaths: ContentView {
    /// Whether `draw(in:context:into:)` now would record exactly what this view's last `draw`
    /// recorded (and its separator inset is what it was). False by default: only a view that
    /// knows its drawing follows from its configuration and the context alone can answer true.
    func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool

    /// Whether `drawsAsLastRecorded` can ever answer true, for the life of the view. A cell whose
    /// content view cannot skips the question and everything it compares before asking it.
    /// False by default.
    var keepsLastRecording: Bool { get }
}

extension ContentViewFastPaths {
    public func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool { false }

    public var keepsLastRecording: Bool { false }
}
