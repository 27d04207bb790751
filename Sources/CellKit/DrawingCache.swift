/// What a cell keeps of its last self-sizing and its last recording, so that asking for the same
/// height again measures nothing and a redraw for a new background (a highlight) re-records only
/// the background: the height last computed, with the width and traits it was for; what the last
/// `draw` was recorded for and where in the recording it put the background; and whether the
/// content view can vouch that it draws as it last recorded. The height is invalid once anything
/// that lays the content out changes (the cell calls `invalidateLayout` when its content view
/// shows something new, or its tint or margins change); the recording is invalid when any of its
/// `DrawingInputs` differ, when the recording was appended to since, or when the content view
/// draws differently; the cell forgets it when it is reused.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
final class DrawingCache {
    @exclusivity(unchecked) private var height: Height?
    @exclusivity(unchecked) private var lastDrawing: LastDrawing?
    /// The content view, when it adopts `ContentViewFastPaths` and keeps its last recording;
    /// looked up once per view.
    @exclusivity(unchecked) private var recordingView: (any ContentViewFastPaths)?
    /// Whether the cell has a content view that cannot vouch for its last recording.
    @exclusivity(unchecked) private var viewRecordsAfresh = false
    /// The background as a redraw records it, kept so its storage is allocated once.
    @exclusivity(unchecked) var backgroundRecording = DisplayList()

    // Structs, not tuples: a tuple with a reference in it is copied and destroyed through the
    // runtime's generic tuple witnesses, and these are read or replaced on every pass. The cache
    // itself is an object, so each question reads its fields in place (a struct stored in the
    // cell would be copied out to answer one).

    private struct Height {
        var width: Double
        var traits: TraitCollection
        var height: Double
    }

    /// What the last `draw` recorded for, where it put the background's commands, and how many
    /// commands it recorded.
    private struct LastDrawing {
        var inputs: DrawingInputs
        var background: Range<Int>
        var commandCount: Int
    }

    /// The height kept for `width` and `traits`, if any.
    func height(forWidth width: Double, traits: TraitCollection) -> Double? {
        guard height != nil, height!.width == width, height!.traits == traits else { return nil }
        return height!.height
    }

    func keepHeight(_ value: Double, forWidth width: Double, traits: TraitCollection) {
        height = Height(width: width, traits: traits, height: value)
    }

    /// Something that lays the content out changed.
    func invalidateLayout() { height = nil }

    /// The cell's content view is now `view`.
    func contentViewChanged(to view: (any ContentView)?) {
        let fastPaths = view as? any ContentViewFastPaths
        recordingView = fastPaths?.keepsLastRecording == true ? fastPaths : nil
        viewRecordsAfresh = view != nil && recordingView == nil
    }

    /// A recording was made for `inputs`, with the background's commands at `background` and
    /// `commandCount` commands in all.
    func recorded(for inputs: DrawingInputs, background: Range<Int>, commandCount: Int) {
        lastDrawing = LastDrawing(inputs: inputs, background: background, commandCount: commandCount)
    }

    func forgetRecording() { lastDrawing = nil }

    /// Whether `list`, the last recording, can be brought up to date for `inputs` by re-recording
    /// its background only: nothing was appended since, every input is the same, and the content
    /// view (if any) draws as it last recorded in `bounds` and `context`.
    /// Nothing is computed for a question answered before it is needed.
    func canRedrawBackgroundOnly(of list: DisplayList, for inputs: @autoclosure () -> DrawingInputs, bounds: Rect,
                                 context: @autoclosure () -> LayoutContext) -> Bool {
        // Compared where it is stored (an `if let` would copy the whole entry).
        guard !viewRecordsAfresh, lastDrawing != nil, lastDrawing!.commandCount == list.commands.count,
              lastDrawing!.inputs == inputs()
        else { return false }
        return recordingView?.drawsAsLastRecorded(in: bounds, context: context()) ?? true
    }

    /// Puts `backgroundRecording` in place of the last recording's background in `list`;
    /// answers whether that changed the list. Only after `canRedrawBackgroundOnly` said yes.
    func replaceBackground(in list: inout DisplayList, willChange: () -> Void) -> Bool {
        let range = lastDrawing!.background
        guard list.replaceCommands(in: range, with: backgroundRecording, willChange: willChange) else { return false }
        lastDrawing!.background = range.lowerBound..<(range.lowerBound + backgroundRecording.commands.count)
        lastDrawing!.commandCount = list.commands.count
        return true
    }
}

/// Everything besides the configurations that a recording depends on: a redraw for equal
/// inputs, whose content view draws as before, differs from the last recording at most in the
/// background's commands.
struct DrawingInputs: Equatable {
    var size: Size
    var clipRect: Rect?
    var clipCornerRadius: Double
    var isLastInSection: Bool
    var traits: TraitCollection
    var tintColor: Color
    var layoutMargins: DirectionalEdgeInsets
    /// Whether the separators were drawn in their selected colour (their configuration is not
    /// an input: setting it drops the recording).
    var separatorsSelected: Bool
    var contentView: ObjectIdentifier?
    /// The outline indentation the content and separator were placed at.
    var indentation: Double
}
