import CellKit

/// A host list content view a plugin view embeds (`cellhost_list_view *`), built from the
/// `EmbeddedListContentProvider` the host configured. It follows the cell rule for its own view:
/// reused while it supports the new configuration, replaced otherwise.
final class EmbeddedListView {
    let style: String
    private(set) var configuration: (any ContentConfiguration)?
    private var view: (any ContentView)?
    /// What the configuration was made from, and under which provider setting: content set again
    /// alike (the same texts and symbol, a state the provider configures alike) keeps it.
    private var madeFrom: (text: String?, secondaryText: String?, symbolName: String?, state: (any ConfigurationState)?,
                           providerGeneration: Int)?

    init(style: String) {
        self.style = style
        configuration = PluginHostEnvironment.listContentProvider?.configuration(
            style: style, text: nil, secondaryText: nil, symbolName: nil, state: nil)
        view = configuration?.makeContentView()
    }

    var styleIsKnown: Bool { configuration != nil }

    func setContent(text: String?, secondaryText: String?, symbolName: String?, state: (any ConfigurationState)?) {
        let (provider, generation) = PluginHostEnvironment.listContentProviderAndGeneration
        guard let provider else { return }
        if let madeFrom, madeFrom.providerGeneration == generation, madeFrom.text == text,
           madeFrom.secondaryText == secondaryText, madeFrom.symbolName == symbolName,
           provider.configuresAlike(style: style, madeFrom.state, state)
        {
            return
        }
        guard let new = provider.configuration(style: style, text: text, secondaryText: secondaryText,
                                               symbolName: symbolName, state: state)
        else { return }
        madeFrom = (text, secondaryText, symbolName, state, generation)
        configuration = new
        if let view, view.supports(new) { view.configuration = new } else { view = new.makeContentView() }
    }

    func sizeThatFits(_ target: Size, context: LayoutContext) -> Size {
        view?.sizeThatFits(target, context: context) ?? Size(width: target.width, height: 0)
    }

    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        view?.draw(in: bounds, context: context, into: &list)
    }

    static func from(_ pointer: OpaquePointer?) -> EmbeddedListView? {
        pointer.map { Unmanaged<EmbeddedListView>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}
