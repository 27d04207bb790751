import CellIO

/// What an outline change did to the list's rows, in an event's trace: which item opened,
/// closed or went with its subtree, at which level, and which rows that inserted or removed.
public struct OutlineTrace: Sendable, Equatable {
    public enum Action: String, Sendable, CaseIterable {
        case expand, collapse
        /// A parent was deleted: its visible descendants went with it.
        case delete
    }

    public var item: String
    public var action: Action
    /// The item's outline level (0 = top level); the rows it shows are one level deeper.
    public var level: Int
    /// Rows inserted below the item, in list order.
    public var inserted: [String]
    /// Rows removed from below the item, in list order.
    public var removed: [String]

    public init(item: String, action: Action, level: Int, inserted: [String] = [], removed: [String] = []) {
        self.item = item
        self.action = action
        self.level = level
        self.inserted = inserted
        self.removed = removed
    }

    /// "expand folder (level 0): +3 rows at level 1 (a, b, c)", for the table.
    public var text: String {
        var s = "\(action.rawValue) \(item) (level \(level))"
        if action == .expand && inserted.isEmpty || action != .expand && removed.isEmpty { return s + ": no rows" }
        let rows = action == .expand ? inserted : removed
        s += action == .expand ? ": +" : ": −"
        s += "\(rows.count) row\(rows.count == 1 ? "" : "s") (" + rows.joined(separator: ", ") + ")"
        return s
    }

    func writeJSON(to out: JSONByteWriter) {
        out.raw(#"{"item":"#); out.string(item)
        out.raw(#","action":"#); out.string(action.rawValue)
        out.raw(#","level":"#); out.int(level)
        if !inserted.isEmpty { out.raw(#","inserted":"#); out.strings(inserted) }
        if !removed.isEmpty { out.raw(#","removed":"#); out.strings(removed) }
        out.byte(UInt8(ascii: "}"))
    }

    var json: JSON { JSON(written: writeJSON) }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        guard let action = Action(rawValue: try r.string("action")) else { throw TraceDecodingError("unknown outline action") }
        self.init(item: try r.string("item"), action: action, level: try r.int("level"),
                  inserted: (try? r.strings("inserted")) ?? [], removed: (try? r.strings("removed")) ?? [])
    }
}
