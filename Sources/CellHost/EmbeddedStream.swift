/// The stream `cellhost run` plays when given none: a list of built-in and plugin cells walked
/// through the seven states of the WWDC20 "Modern cell configuration" demo (normal, highlighted,
/// selected, highlighted+selected, disabled, disabled+selected, drop target), then dark mode and
/// an accessibility text size. One built-in cell has a customised text colour, so the trace
/// shows a locked property next to restyled ones.
public enum EmbeddedStream {
    public static let sourceName = "<embedded>"

    /// The stream for the plugin types loaded: one cell of each joins the built-in cells.
    public static func text(pluginTypes: [String]) -> String {
        var lines = [
            #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 2}}"#,
            #"{"section": {"id": "builtin", "header": "Built-in cells", "footer": "List content configurations from CellKit"}}"#,
            #"{"item": {"id": "inbox", "set": {"text": "Inbox", "image": {"symbol": "tray"}}}}"#,
            #"{"item": {"id": "drafts", "style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent messages", "image": {"symbol": "doc"}}}}"#,
            #"{"item": {"id": "flagged", "style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12", "textProperties.color": "systemOrange"}}}"#,
        ]
        var ids = ["inbox", "drafts", "flagged"]
        if !pluginTypes.isEmpty {
            lines.append(#"{"section": {"id": "plugins", "header": "Plugin cells"}}"#)
            for (i, type) in pluginTypes.enumerated() {
                let id = "plugin\(i + 1)"
                lines.append(#"{"item": {"id": "\#(id)", "type": "\#(type)"}}"#)
                ids.append(id)
            }
        }
        let all = "[" + ids.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        lines += [
            #"{"note": "highlighted (touch down)", "cell": \#(all), "highlighted": true}"#,
            #"{"note": "selected (touch up)", "cell": \#(all), "highlighted": false, "selected": true}"#,
            #"{"note": "highlighted + selected", "cell": \#(all), "highlighted": true}"#,
            #"{"note": "disabled", "cell": \#(all), "highlighted": false, "selected": false, "disabled": true}"#,
            #"{"note": "disabled + selected", "cell": \#(all), "selected": true}"#,
            #"{"note": "drop target", "cell": \#(all), "selected": false, "disabled": false, "drop": "targeted"}"#,
            #"{"note": "back to normal", "animate": {"duration": 0.2, "frames": 4}, "cell": \#(all), "drop": "none"}"#,
            #"{"note": "dark mode", "traits": {"style": "dark"}}"#,
            #"{"note": "accessibility text size", "traits": {"contentSize": "AX3"}}"#,
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
