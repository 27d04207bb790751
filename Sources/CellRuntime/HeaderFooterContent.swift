import CellKit

/// Headers and footers described as configurations: any list content style (a header may be a
/// `prominentInsetGroupedHeader`, a `subtitleCell`, a `valueCell`…) or a plugin's type, with
/// properties and a background set, checked like an item's.
extension Engine {
    /// The header's or footer's configurations: its factory's (list content without a style
    /// takes the list's default header or footer style, as `defaultContentConfiguration()` of a
    /// header view does), as its description sets it up, and its background.
    func headerFooterContent(_ described: ItemDescription, role: ConfigurableViewRole) throws(EngineError)
        -> (pristine: any ContentConfiguration, content: any ContentConfiguration, background: BackgroundConfiguration?) {
        var item = described
        if item.isListContent && item.style == nil { item.style = appearance.defaultContentStyle(for: role).rawValue }
        return try rowContent(item, pristineBackground: defaultBackground(for: role))
    }
}
