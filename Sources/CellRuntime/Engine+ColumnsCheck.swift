import CellKit

extension Engine {
    /// The scene check of items stored by column: every item fails before the first event as
    /// `rowContent` would fail for it, with its id and line. Items of one shape differ only in
    /// their property values, so the first item of each shape goes through `rowContent` (which
    /// checks its style, background and handlers, the same for the whole shape), and the later
    /// list content items of that shape check only their values against the style's
    /// configuration (`checkSetting`: a setter's verdict depends on the name and value alone),
    /// not set each on a copy of it. A property whose values are strings in the shape and whose
    /// setter takes every string up to the columns' longest (any text) is decided for the whole
    /// shape at once: no string of those items can fail it. Plugin items are set one by one as
    /// before: their setters run in the plugin, announced.
    func checkItems(_ columns: ItemColumns, pristineBackground: BackgroundConfiguration) throws(EngineError) {
        var listShapes = [ShapeCheck?](repeating: nil, count: ItemColumns.maximumShapes)
        // Per shape: whether its later items are checked item by item (read without copying the check).
        var checksEachItem = [Bool?](repeating: nil, count: ItemColumns.maximumShapes)
        for k in 0..<columns.count {
            let shape = columns.shapeNumber(at: k)
            if let checks = checksEachItem[shape] {
                guard checks, let known = listShapes[shape] else { continue }
                for (p, name) in known.checkedOneByOne {
                    do throws(ConfigurationPropertyError) { try known.pristine.checkSetting(name, to: columns.value(p, ofItem: k)) }
                    catch { throw EngineError("item \"\(columns.id(at: k))\": \(error)", line: columns.line(at: k)) }
                }
                continue
            }
            let item = columns.item(at: k)
            let (pristine, _, _) = try rowContent(item, pristineBackground: pristineBackground)
            if item.isListContent, let list = pristine as? ListContentConfiguration {
                let oneByOne = item.properties.enumerated().filter { _, property in
                    !(ItemColumns.isString(property.value)
                        && list.acceptsEveryString(property.name, upToBytes: columns.longestStringBytes))
                }
                listShapes[shape] = ShapeCheck(pristine: list, checkedOneByOne: oneByOne.map { ($0.offset, $0.element.name) })
                checksEachItem[shape] = !oneByOne.isEmpty
            }
        }
    }
}

/// How the later items of one shape are checked: the style's configuration, and the properties
/// (position in the shape, name) whose values are checked item by item.
private struct ShapeCheck {
    let pristine: ListContentConfiguration
    let checkedOneByOne: [(Int, String)]
}
