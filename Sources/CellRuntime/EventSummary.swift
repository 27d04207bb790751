import CellIO
import CellKit

/// An event's summary in words ("apple: selected, not highlighted"), for tables and slice names.
/// It keeps the event's actions and spells them out when read: the words are a noticeable part
/// of a highlight event's engine work, and only sinks read them — in `cellhost run` once per event,
/// when the worker writes the trace line — so an engine whose trace nobody reads never builds them.
public struct EventSummary: Sendable, Equatable, CustomStringConvertible {
    private enum Source: Sendable {
        case text(String)
        case actions([EventAction])
    }

    private let source: Source

    /// A summary already in words (a trace read back from JSON, a test's record).
    public init(_ text: String) { source = .text(text) }

    /// The summary of an event with these actions, spelled out when first read.
    public init(describing actions: [EventAction]) { source = .actions(actions) }

    public var description: String {
        switch source {
        case .text(let text): text
        case .actions(let actions): Self.text(of: actions)
        }
    }

    /// Two summaries are equal when they read the same.
    public static func == (a: EventSummary, b: EventSummary) -> Bool { a.description == b.description }

    /// The words for `actions`, appended into one string (no part arrays).
    static func text(of actions: [EventAction]) -> String {
        var text = ""
        // Read in place: actions taken out of the array one by one are copied.
        actions.withUnsafeBufferPointer { actions in
            for i in actions.indices {
                if i > 0 { text += "; " }
                describe(actions[i], into: &text)
            }
        }
        return text
    }

    /// "apple,pear: selected, not highlighted, text=\"A\"".
    private static func describe(_ e: CellEvent, into text: inout String) {
        for (i, target) in e.targets.enumerated() {
            if i > 0 { text += "," }
            text += target.description
        }
        text += ": "
        var first = true
        func separate() {
            if !first { text += ", " }
            first = false
        }
        func flag(_ name: String, _ value: Bool?) {
            guard let value else { return }
            separate()
            if !value { text += "not " }
            text += name
        }
        let s = e.state
        flag("highlighted", s.highlighted)
        flag("selected", s.selected)
        flag("disabled", s.disabled)
        flag("focused", s.focused)
        flag("pinned", s.pinned)
        flag("editing", s.editing)
        flag("expanded", s.expanded)
        flag("swiped", s.swiped)
        flag("reordering", s.reordering)
        if let d = s.drag { separate(); text += "drag=\(d.rawValue)" }
        if let d = s.drop { separate(); text += "drop=\(d.rawValue)" }
        for c in s.custom { separate(); text += "\(c.key)=\(c.value.map { "\($0)" } ?? "nil")" }
        for a in e.set { separate(); text += "\(a.name)=\(a.value)" }
        for a in e.background { separate(); text += "background.\(a.name)=\(a.value)" }
        for p in e.perform { separate(); text += "\(p.name)()" }
        if e.setNeedsUpdateConfiguration { separate(); text += "setNeedsUpdateConfiguration" }
        if let a = e.accessories { separate(); text += "accessories=[" + a.map(\.description).joined(separator: ", ") + "]" }
        if let edge = e.swipe {
            separate()
            text += edge == .none ? "swipe closed" : (e.fullSwipe ? "full swipe \(edge.rawValue)" : "swiped \(edge.rawValue)")
        }
    }

    private static func describe(_ action: EventAction, into text: inout String) {
        switch action {
        case .cells(let e): describe(e, into: &text)
        case .traits(let t):
            var parts: [String] = []
            if let v = t.userInterfaceStyle { parts.append(v.rawValue) }
            if let v = t.contentSizeCategory { parts.append("text size \(v.shortName)") }
            if let v = t.layoutDirection { parts.append(v == .leftToRight ? "ltr" : "rtl") }
            if let v = t.accessibilityContrast { parts.append("\(v.rawValue) contrast") }
            if let v = t.horizontalSizeClass { parts.append("\(v.rawValue) width") }
            if let v = t.verticalSizeClass { parts.append("\(v.rawValue) height") }
            if let v = t.userInterfaceLevel { parts.append("\(v.rawValue) level") }
            if let v = t.legibilityWeight { parts.append("\(v.rawValue) text") }
            if let v = t.userInterfaceIdiom { parts.append(v.rawValue) }
            text += "traits: " + parts.joined(separator: ", ")
        case .scroll(.to(let y)): text += "scroll to \(formatPoints(y))"
        case .scroll(.by(let dy)): text += "scroll by \(formatPoints(dy))"
        case .insert(let item, let section, _): text += "insert \(item.id) into \(section)"
        case .delete(let id): text += "delete \(id)"
        case .reload(let id): text += "reload \(id)"
        case .capture(let name, let cell): text += "capture" + (name.map { " \($0)" } ?? "") + (cell.map { " of \($0)" } ?? "")
        case .outline(let o): text += (o.expands ? "expand " : "collapse ") + o.itemID
        }
    }
}
