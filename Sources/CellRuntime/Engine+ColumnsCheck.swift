import CellKit

extension Engine {
    /// The scene check of items stored by column: every item fails before the first event as
    /// `rowContent` would fail for it, with its id and line. Items of one shape differ only in
    /// their property values, so the first item of each shape goes through `rowContent` (which
    /// checks its style, background and handlers, the same for the whole shape), and the later
    /// list content items of that shape check only their values against the style's
    /// configuration (`checkSetting`: a setter's verdict depends on the name and value alone),
    /// not set each on a copy of it. Plugin items are set one by one as before: their setters
    /// run in the plugin, announced.
    func checkItems(_ columns: ItemColumns, pristineBackground: BackgroundConfiguration) throws(EngineError) {
        var listShapes = [(pristine: ListContentConfiguration, names: [String])?](repeating: nil, count: ItemColumns.maximumShapes)
        for k in 0..<columns.count {
            let shape = columns.shapeNumber(at: k)
            if let known = listShapes[shape] {
                for (p, name) in known.names.enumerated() {
                    do throws(ConfigurationPropertyError) { try known.pristine.checkSetting(name, to: columns.value(p, ofItem: k)) }
                    catch { throw EngineError("item \"\(columns.id(at: k))\": \(error)", line: columns.line(at: k)) }
                }
                continue
            }
            let item = columns.item(at: k)
            let (pristine, _, _) = try rowContent(item, pristineBackground: pristineBackground)
            if item.isListContent, let list = pristine as? ListContentConfiguration {
                listShapes[shape] = (list, item.properties.map(\.name))
            }
        }
    }
}
