import CCellHostABI
import CellKit
import Glibc

/// A host list content view a plugin view embeds (`cellhost_list_view *`), built from the
/// `EmbeddedListContentProvider` the host configured. It follows the cell rule for its own view:
/// reused while it supports the new configuration, replaced otherwise.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
final class EmbeddedListView {
    let style: String
    @exclusivity(unchecked) private(set) var configuration: (any ContentConfiguration)?
    @exclusivity(unchecked) private var view: (any ContentView)?
    /// What the configuration was made from, and under which provider setting: content set again
    /// alike (the same texts and symbol, a state the provider configures alike) keeps it.
    @exclusivity(unchecked) private var madeFrom: MadeFrom?

    /// A reference, so checking it copies no strings or state.
    private final class MadeFrom {
        let text: String?, secondaryText: String?, symbolName: String?
        let state: (any ConfigurationState)?
        let providerGeneration: Int
        init(text: String?, secondaryText: String?, symbolName: String?, state: (any ConfigurationState)?,
             providerGeneration: Int) {
            self.text = text
            self.secondaryText = secondaryText
            self.symbolName = symbolName
            self.state = state
            self.providerGeneration = providerGeneration
        }
    }

    /// C states the provider said configure alike with `madeFrom.state` (at most
    /// `alikeStateLimit`): content set again from C with the same texts and one of these states
    /// is kept without converting the state or asking the provider again. Emptied whenever the
    /// configuration is made anew.
    @exclusivity(unchecked) private var statesAlikeWithMadeFrom: [ABIStateKey] = []
    static let alikeStateLimit = 8

    /// The last size asked from C and the last recording drawn from C, with what they depended
    /// on; both dropped whenever the configuration is made anew. A plugin view asks both on every
    /// pass, mostly for the same size and context: answering from these skips copying the layout
    /// context out of the call and the list content view's own checks of what it keeps.
    @exclusivity(unchecked) private var lastSize: LastAnswer<Size>?
    @exclusivity(unchecked) private var lastDrawing: LastAnswer<(recording: DisplayList, groups: RecordingGroups)>?

    /// An answer of the list content view and the inputs it was given (the configuration aside):
    /// the size asked for, and the traits, tint and margins of the layout context (what the list
    /// content view keys its own layout and recording by).
    private final class LastAnswer<Answer> {
        let size: Size, traits: TraitCollection, margins: DirectionalEdgeInsets
        /// The tint colour, kept where its bytes can be compared with a context's.
        private let tintColor: UnsafeMutablePointer<Color>
        let answer: Answer

        init(size: Size, context: UnsafePointer<LayoutContext>, answer: Answer) {
            self.size = size
            traits = context.pointee.traits
            margins = context.pointee.superviewLayoutMargins
            tintColor = .allocate(capacity: 1)
            tintColor.initialize(to: context.pointee.tintColor)
            self.answer = answer
        }

        deinit {
            tintColor.deinitialize(count: 1)
            tintColor.deallocate()
        }

        /// Whether this answer was given for `size` and a context with these values. The tint
        /// counts as the same only as the same bytes (the same name and variants, which this
        /// answer keeps alive): reading a context's colour through the pointer to compare it
        /// copies it. An equal colour with other bytes is asked anew, which answers the same.
        func isFor(_ size: Size, _ context: UnsafePointer<LayoutContext>) -> Bool {
            size == self.size && context.pointee.traits == traits && context.pointee.superviewLayoutMargins == margins
                && memcmp(tintColor, UnsafeRawPointer(context) + EmbeddedListView.tintColorOffset, MemoryLayout<Color>.size) == 0
        }
    }

    /// Where a `LayoutContext` keeps its tint colour.
    private static let tintColorOffset = MemoryLayout<LayoutContext>.offset(of: \LayoutContext.tintColor)!

    init(style: String) {
        self.style = style
        configuration = PluginHostEnvironment.listContentProvider?.configuration(
            style: style, text: nil, secondaryText: nil, symbolName: nil, state: nil)
        view = configuration?.makeContentView()
    }

    var styleIsKnown: Bool { configuration != nil }

    /// `list_view_set_content` as a plugin called it: the content and state in their C form,
    /// valid only during the call.
    func setContent(_ content: cellhost_list_content, state: UnsafePointer<cellhost_state>?) {
        let key = ABIStateKey(state)
        if let key, let madeFrom, madeFrom.providerGeneration == PluginHostEnvironment.listContentProviderGeneration,
           statesAlikeWithMadeFrom.contains(key), madeFrom.text.hasBytes(of: content.text),
           madeFrom.secondaryText.hasBytes(of: content.secondary_text), madeFrom.symbolName.hasBytes(of: content.symbol_name)
        {
            return
        }
        let kept = setContent(text: content.text.map { String(cString: $0) },
                              secondaryText: content.secondary_text.map { String(cString: $0) },
                              symbolName: content.symbol_name.map { String(cString: $0) },
                              state: state.map(ABIState.configurationState(from:)))
        if kept, let key, !statesAlikeWithMadeFrom.contains(key), statesAlikeWithMadeFrom.count < Self.alikeStateLimit {
            statesAlikeWithMadeFrom.append(key)
        }
    }

    /// Shows this content styled for `state`. Returns true when the configuration was kept
    /// because the same content came with a state the provider configures alike.
    @discardableResult
    func setContent(text: String?, secondaryText: String?, symbolName: String?, state: (any ConfigurationState)?) -> Bool {
        let (provider, generation) = PluginHostEnvironment.listContentProviderAndGeneration
        guard let provider else { return false }
        if let madeFrom, madeFrom.providerGeneration == generation, madeFrom.text == text,
           madeFrom.secondaryText == secondaryText, madeFrom.symbolName == symbolName,
           provider.configuresAlike(style: style, madeFrom.state, state)
        {
            return true
        }
        guard let new = provider.configuration(style: style, text: text, secondaryText: secondaryText,
                                               symbolName: symbolName, state: state)
        else { return false }
        madeFrom = MadeFrom(text: text, secondaryText: secondaryText, symbolName: symbolName, state: state,
                            providerGeneration: generation)
        statesAlikeWithMadeFrom.removeAll(keepingCapacity: true)
        lastSize = nil
        lastDrawing = nil
        configuration = new
        if let view, view.supports(new) { view.configuration = new } else { view = new.makeContentView() }
        return false
    }

    func sizeThatFits(_ target: Size, context: LayoutContext) -> Size {
        view?.sizeThatFits(target, context: context) ?? Size(width: target.width, height: 0)
    }

    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        view?.draw(in: bounds, context: context, into: &list)
    }

    /// `list_view_size_that_fits` with the layout context of the call into the plugin.
    func sizeThatFits(_ target: Size, context: UnsafePointer<LayoutContext>) -> Size {
        if let lastSize, lastSize.isFor(target, context) { return lastSize.answer }
        let size = sizeThatFits(target, context: context.pointee)
        lastSize = LastAnswer(size: target, context: context, answer: size)
        return size
    }

    /// `list_view_draw`: the content drawn for `size` and the layout context of the call into the
    /// plugin, appended to the plugin's canvas moved to `origin`.
    func draw(size: Size, context: UnsafePointer<LayoutContext>, onto canvas: UnsafeMutablePointer<HostCanvas>,
              at origin: Point) {
        if let lastDrawing, lastDrawing.isFor(size, context) {
            canvas.pointee.append(contentsOf: lastDrawing.answer.recording, groups: lastDrawing.answer.groups, offsetBy: origin)
            return
        }
        var recorded = DisplayList()
        draw(in: Rect(origin: .zero, size: size), context: context.pointee, into: &recorded)
        let groups = RecordingGroups(recorded)
        lastDrawing = LastAnswer(size: size, context: context, answer: (recorded, groups))
        canvas.pointee.append(contentsOf: recorded, groups: groups, offsetBy: origin)
    }

    /// `body` with the view behind a `cellhost_list_view *` a plugin passed (nothing for NULL).
    /// The plugin holds the view during the call, so it is borrowed, not retained and released.
    @inline(__always)
    static func with(_ pointer: OpaquePointer?, _ body: (EmbeddedListView) -> Void) {
        guard let pointer else { return }
        Unmanaged<EmbeddedListView>.fromOpaque(UnsafeRawPointer(pointer))._withUnsafeGuaranteedRef(body)
    }
}

extension Optional where Wrapped == String {
    /// Whether the string has exactly the bytes of the C string `c` (both absent counts as the
    /// same). Equal bytes make equal strings; unequal bytes may still make equal strings
    /// (canonically equivalent text), which callers find out by comparing strings.
    func hasBytes(of c: UnsafePointer<CChar>?) -> Bool {
        switch (self, c) {
        case (nil, nil): return true
        case (let string?, let c?):
            let count = string.utf8.count
            return strlen(c) == count && string.withCString { memcmp($0, c, count) == 0 }
        default: return false
        }
    }
}
