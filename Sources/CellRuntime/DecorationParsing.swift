import CellIO
import CellKit

/// The stream's words for accessories and swipe actions: `"accessories": [...]` on an item or in
/// a cell event's `set`, `"swipeActions": {"leading": [...], "trailing": [...]}` on an item, and
/// the `{"swipe": {"cell": "id", "edge": "trailing", "full": true}}` event.
extension EventStreamParser {
    /// `["disclosureIndicator", {"label": {"text": "3"}}, {"delete": {"displayed": "always"}}]`: a
    /// kind's name with UIKit's defaults, or an object with one kind whose value holds options.
    static func parseAccessories(_ value: JSON) throws(LineError) -> [CellAccessory] {
        guard let list = value.arrayValue else {
            throw LineError("\"accessories\" takes an array of accessories (like [\"disclosureIndicator\", {\"label\": {\"text\": \"3\"}}]), not \(value.kindName)")
        }
        var out: [CellAccessory] = []
        for entry in list { out.append(try parseAccessory(entry)) }
        return out
    }

    private static func parseAccessory(_ entry: JSON) throws(LineError) -> CellAccessory {
        let names = CellAccessory.kindNames
        let name: String
        var options: JSON = .object([])
        if let s = entry.stringValue {
            name = s
        } else if let pairs = entry.objectPairs, pairs.count == 1 {
            (name, options) = pairs[0]
        } else {
            throw LineError("an accessory is a kind's name or {\"<kind>\": {options}} with one kind (\(names.joined(separator: ", "))), not \(entry.serialized)")
        }
        guard names.contains(name) else {
            throw LineError("\"\(name)\" is not an accessory (\(names.joined(separator: ", ")))" + Suggestion.hint(for: name, in: names))
        }
        var f = try Fields(options, in: name)
        let kind: CellAccessory.Kind
        switch name {
        case "disclosureIndicator": kind = .disclosureIndicator
        case "checkmark": kind = .checkmark
        case "delete": kind = .delete
        case "insert": kind = .insert
        case "reorder": kind = .reorder
        case "outlineDisclosure": kind = .outlineDisclosure
        case "detail": kind = .detail
        case "multiselect": kind = .multiselect
        case "label":
            guard let text = try f.string("text") else { throw LineError("a \"label\" accessory needs \"text\"") }
            kind = .label(text: text)
        default:
            let symbol = try f.string("symbol"), path = try f.string("image")
            let width = try f.requiredNumber("width"), height = try f.requiredNumber("height")
            guard width > 0, height > 0, width <= 1000, height <= 1000 else {
                throw LineError("a \"customView\" accessory's size must be 0…1000 points, not \(formatPoints(width))×\(formatPoints(height))")
            }
            let size = Size(width: width, height: height)
            switch (symbol, path) {
            case (let s?, nil): kind = .customView(image: Image(systemName: s), size: size)
            case (nil, let p?): kind = .customView(image: Image(path: p, size: size), size: size)
            default: throw LineError("a \"customView\" accessory shows exactly one of \"symbol\" (a symbol name) and \"image\" (a PNG path)")
            }
        }
        let displayed = try f.enumValue("displayed", CellAccessory.DisplayedState.self)
        let placement = try f.enumValue("placement", CellAccessory.Placement.self)
        let tint = try colour(&f, "tintColor")
        var width = CellAccessory.LayoutWidth.standard
        if let w = f.take("reservedLayoutWidth") {
            switch w {
            case .string("standard"): width = .standard
            case .string("actual"): width = .actual
            default:
                guard let d = w.doubleValue, d >= 0, d <= 1000 else {
                    throw LineError("\"reservedLayoutWidth\" is \"standard\", \"actual\" or a width in points (0…1000), not \(w.serialized)")
                }
                width = .custom(d)
            }
        }
        try f.finish()
        return CellAccessory(kind, displayed: displayed, placement: placement, tintColor: tint, reservedLayoutWidth: width)
    }

    /// `{"leading": [actions], "trailing": [actions]}`, each action
    /// `{"title": "Delete", "style": "destructive", "backgroundColor": "systemBlue", "image": "trash"}`;
    /// an edge may instead be `{"actions": [actions], "performsFirstActionWithFullSwipe": false}`.
    static func parseSwipeActions(_ value: JSON, into decorations: inout CellDecorations) throws(LineError) {
        var f = try Fields(value, in: "swipeActions", known: ["leading", "trailing"])
        try f.rejectUnknown()
        for edge in ["leading", "trailing"] {
            guard var list = f.take(edge) else { continue }
            var performsOnFullSwipe = true
            if list.objectPairs != nil {
                var ef = try Fields(list, in: edge, known: ["actions", "performsFirstActionWithFullSwipe"])
                try ef.rejectUnknown()
                guard let actions = ef.take("actions") else {
                    throw LineError("\"\(edge)\" as an object needs \"actions\": [{\"title\": …}]")
                }
                performsOnFullSwipe = try ef.bool("performsFirstActionWithFullSwipe") ?? true
                try ef.finish()
                list = actions
            }
            guard let items = list.arrayValue, !items.isEmpty else {
                throw LineError("\"\(edge)\" swipe actions take a non-empty array of {\"title\", \"style\", \"backgroundColor\", \"image\"}, not \(list.kindName)")
            }
            var actions: [SwipeAction] = []
            for item in items {
                var af = try Fields(item, in: "swipe action")
                let title = try af.string("title")
                let image = try af.string("image").map(Image.init(systemName:))
                guard title != nil || image != nil else { throw LineError("a swipe action needs a \"title\" or an \"image\" (a symbol name)") }
                let style = try af.enumValue("style", SwipeAction.Style.self) ?? .normal
                let background = try colour(&af, "backgroundColor")
                try af.finish()
                actions.append(SwipeAction(title: title, style: style, backgroundColor: background, image: image))
            }
            let configuration = SwipeActionsConfiguration(actions: actions, performsFirstActionWithFullSwipe: performsOnFullSwipe)
            if edge == "leading" { decorations.leadingSwipeActions = configuration } else { decorations.trailingSwipeActions = configuration }
        }
        try f.finish()
    }

    /// The colour named by `key` ("systemBlue", "#RRGGBB[AA]"), if the object has it.
    private static func colour(_ f: inout Fields, _ key: String) throws(LineError) -> Color? {
        guard let text = try f.string(key) else { return nil }
        guard let c = Color(parsing: text) else {
            throw LineError("\"\(text)\" is not a colour for \"\(key)\" (a name like \"systemBlue\" or \"#RRGGBB[AA]\")"
                + Suggestion.hint(for: text, in: Color.named.keys))
        }
        return c
    }

    /// `{"cell": "id", "edge": "trailing"}`: opens that edge's actions (`none` closes them);
    /// `"full": true` swipes across the row, performing the first action.
    static func parseSwipe(_ value: JSON) throws(LineError) -> (cell: String, edge: SwipeEdge, full: Bool) {
        var f = try Fields(value, in: "swipe", known: ["cell", "edge", "full"])
        try f.rejectUnknown()
        let cell = try f.requiredString("cell")
        guard let edge = try f.enumValue("edge", SwipeEdge.self) else {
            throw LineError("\"swipe\" needs \"edge\": \"leading\", \"trailing\" or \"none\" (closes)")
        }
        let full = try f.bool("full") ?? false
        if full && edge == .none { throw LineError("a \"full\" swipe needs \"edge\": \"leading\" or \"trailing\"") }
        try f.finish()
        return (cell, edge, full)
    }
}
