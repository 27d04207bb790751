/// The stream `cellhost run` plays when given none: a list of built-in and plugin cells walked
/// through the seven states of the WWDC20 "Modern cell configuration" demo (normal, highlighted,
/// selected, highlighted+selected, disabled, disabled+selected, drop target), then dark mode and
/// an accessibility text size. One built-in cell has a customised text colour, so the trace
/// shows a locked property next to restyled ones. The sample plugin cells start with values that
/// show what they draw, and after the demo states run one of their actions and turn on one of
/// their custom states, so the trace shows properties set by an event and custom states.
public enum EmbeddedStream {
    public static let sourceName = "<embedded>"

    /// What the default run does with a known sample type: its starting values (a JSON object),
    /// an action call (a JSON `perform` value) and a custom state to turn on.
    struct Showcase {
        var values: String
        var action: (note: String, call: String)
        var customState: String
    }

    static let showcases: [String: Showcase] = [
        "com.cellhost.samples.badge": Showcase(values: #"{"title": "Unread", "count": 3}"#,
                                               action: ("increment(by: 2)", #"{"increment": [2]}"#), customState: "urgent"),
        "com.cellhost.samples.progress": Showcase(values: #"{"title": "Upload", "progress": 0.6}"#,
                                                  action: ("advance(by: 0.2)", #"{"advance": [0.2, false]}"#), customState: "paused"),
    ]

    /// The stream for the plugin types loaded: one cell of each joins the built-in cells.
    public static func text(pluginTypes: [String]) -> String {
        var lines = [
            #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 2}}"#,
            #"{"section": {"id": "builtin", "header": "Built-in cells", "footer": "List content configurations from CellKit"}}"#,
            #"{"item": {"id": "inbox", "set": {"text": "Inbox", "image": {"symbol": "tray"}}}}"#,
            #"{"item": {"id": "drafts", "style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent messages", "image": {"symbol": "envelope"}}}}"#,
            #"{"item": {"id": "flagged", "style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12", "textProperties.color": "systemOrange"}}}"#,
        ]
        var ids = ["inbox", "drafts", "flagged"]
        if !pluginTypes.isEmpty {
            lines.append(#"{"section": {"id": "plugins", "header": "Plugin cells"}}"#)
            for (i, type) in pluginTypes.enumerated() {
                let id = "plugin\(i + 1)"
                let values = showcases[type].map { #", "set": \#($0.values)"# } ?? ""
                lines.append(#"{"item": {"id": "\#(id)", "type": "\#(type)"\#(values)}}"#)
                ids.append(id)
            }
        }
        let showcased = pluginTypes.enumerated().compactMap { i, type in showcases[type].map { ("plugin\(i + 1)", $0) } }
        let all = "[" + ids.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        lines += [
            #"{"note": "highlighted (touch down)", "cell": \#(all), "highlighted": true}"#,
            #"{"note": "selected (touch up)", "cell": \#(all), "highlighted": false, "selected": true}"#,
            #"{"note": "highlighted + selected", "cell": \#(all), "highlighted": true}"#,
            #"{"note": "disabled", "cell": \#(all), "highlighted": false, "selected": false, "disabled": true}"#,
            #"{"note": "disabled + selected", "cell": \#(all), "selected": true}"#,
            #"{"note": "drop target", "cell": \#(all), "selected": false, "disabled": false, "drop": "targeted"}"#,
            #"{"note": "back to normal", "animate": {"duration": 0.2, "frames": 4}, "cell": \#(all), "drop": "none"}"#,
        ]
        for (id, showcase) in showcased {
            lines.append(#"{"note": "plugin action \#(showcase.action.note)", "cell": "\#(id)", "perform": \#(showcase.action.call)}"#)
        }
        for (id, showcase) in showcased {
            lines.append(#"{"note": "plugin custom state \#(showcase.customState)", "cell": "\#(id)", "custom": {"\#(showcase.customState)": true}}"#)
        }
        lines += [
            #"{"note": "dark mode", "traits": {"style": "dark"}}"#,
            #"{"note": "accessibility text size", "traits": {"contentSize": "AX3"}}"#,
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
