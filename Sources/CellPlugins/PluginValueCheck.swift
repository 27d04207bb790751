import CCellHostABI
import CellKit

/// Checks of the values a plugin hands the host, before host code uses them (see `ValueBounds`).
/// Each returns nil for a usable value, or what is wrong with it, worded for a `PluginFault`.
enum PluginValueCheck {
    static func size(_ s: cellhost_size) -> String? {
        if let p = ValueBounds.lengthProblem(s.width, nonNegative: true) { return "width " + p }
        if let p = ValueBounds.lengthProblem(s.height, nonNegative: true) { return "height " + p }
        return nil
    }

    static func rect(_ r: cellhost_rect, _ what: String = "rect") -> String? {
        for (name, value) in [("x", r.x), ("y", r.y), ("width", r.width), ("height", r.height)] {
            if let p = ValueBounds.lengthProblem(value) { return "\(what) \(name) \(p)" }
        }
        return nil
    }

    static func length(_ value: Double, _ what: String) -> String? {
        ValueBounds.lengthProblem(value).map { "\(what) \($0)" }
    }

    static func color(_ c: cellhost_color, _ what: String = "colour") -> String? {
        for (name, value) in [("red", c.red), ("green", c.green), ("blue", c.blue), ("alpha", c.alpha)] where !value.isFinite {
            return "\(what) \(name) \(value) is not finite"
        }
        return nil
    }

    static func font(_ f: cellhost_font) -> String? {
        ValueBounds.pointSizeProblem(f.point_size).map { "font point_size " + $0 }
    }

    static func textRequest(_ r: cellhost_text_request) -> String? {
        if r.length > 0 && r.text == nil { return "text is NULL with length \(r.length)" }
        if let problem = ValueBounds.textProblem(bytes: Int(clamping: r.length)) { return problem }
        return font(r.font)
    }

    static func textRun(_ run: cellhost_text_run) -> String? {
        textRequest(run.text) ?? color(run.color) ?? rect(run.frame, "frame")
    }

    static func finite(_ value: Double, _ what: String) -> String? {
        value.isFinite ? nil : "\(what) \(value) is not finite"
    }
}
