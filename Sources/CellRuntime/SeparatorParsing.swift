import CellIO
import CellKit

/// `"separators": {…}` on the scene (every row's `UIListSeparatorConfiguration`) or on an item
/// (its own, as `itemSeparatorHandler` gives it: the fields it names change the list's):
/// `topSeparatorVisibility` / `bottomSeparatorVisibility` (`automatic`, `visible`, `hidden`),
/// `topSeparatorInsets` / `bottomSeparatorInsets` (`{"leading": 16, "trailing": 0}`, an edge
/// left out is automatic), `color`, `multipleSelectionColor`.
extension EventStreamParser {
    static let separatorKeys = ["topSeparatorVisibility", "bottomSeparatorVisibility", "topSeparatorInsets",
                                "bottomSeparatorInsets", "color", "multipleSelectionColor"]

    func parseSeparators(_ value: JSON, base: ListSeparatorConfiguration?) throws(LineError) -> ListSeparatorConfiguration {
        var f = try Fields(value, in: "separators", known: EventStreamParser.separatorKeys)
        var c = base ?? ListSeparatorConfiguration()
        if let v = try f.enumValue("topSeparatorVisibility", ListSeparatorVisibility.self) { c.topSeparatorVisibility = v }
        if let v = try f.enumValue("bottomSeparatorVisibility", ListSeparatorVisibility.self) { c.bottomSeparatorVisibility = v }
        if let i = f.take("topSeparatorInsets") { c.topSeparatorInsets = try separatorInsets(i, "topSeparatorInsets") }
        if let i = f.take("bottomSeparatorInsets") { c.bottomSeparatorInsets = try separatorInsets(i, "bottomSeparatorInsets") }
        if let v = f.take("color") { c.color = try separatorColor(v, "color") }
        if let v = f.take("multipleSelectionColor") { c.multipleSelectionColor = try separatorColor(v, "multipleSelectionColor") }
        try f.finish()
        return c
    }

    private func separatorInsets(_ value: JSON, _ key: String) throws(LineError) -> ListSeparatorConfiguration.Insets {
        var f = try Fields(value, in: key, known: ["leading", "trailing"])
        let insets = ListSeparatorConfiguration.Insets(leading: try f.number("leading"), trailing: try f.number("trailing"))
        try f.finish()
        for edge in [insets.leading, insets.trailing] {
            if let edge, edge < 0 || edge > 10_000 { throw LineError("\"\(key)\" edges are 0…10000 points, not \(formatPoints(edge))") }
        }
        return insets
    }

    private func separatorColor(_ value: JSON, _ key: String) throws(LineError) -> Color {
        let property = "separators." + key
        do {
            if let c = try Color.converting(try propertyValue(value, for: property), property: property) { return c }
        } catch let error as LineError {
            throw error
        } catch {
            throw LineError("\(error)")
        }
        throw LineError("\"\(key)\" takes a colour (a system colour name, \"#RRGGBB\" or an object), not \(value.kindName)")
    }
}
