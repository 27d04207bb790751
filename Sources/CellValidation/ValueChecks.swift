import CellKit
import CellPlugins

/// Checks of the values a plugin hands back to the host: the host refuses a size or a canvas
/// argument it cannot use and a run ends at that call as the plugin's fault, so validate finds
/// such values before a run does.
enum ValueChecks {
    /// Target widths a list gives a cell: ordinary, none at all, one point.
    static let targetWidths: [Double] = [ViewChecks.bounds.width, 0, 1]

    static func plausibleValues(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        _ = PluginFaults.take()
        for type in plugin.types {
            for (name, configuration) in ViewChecks.variants(of: type, r) {
                let view = PluginContentView(configuration: configuration)
                for width in targetWidths {
                    r.step("\(type.typeIdentifier): sizing \(name) for width \(width)")
                    let size = view.sizeThatFits(Size(width: width, height: 0), context: CheckRecorder.layoutContext())
                    if let fault = PluginFaults.take() { return r.fail(fault.description + " (\(name), target width \(width))") }
                    r.step("\(type.typeIdentifier): drawing \(name) in \(Int(width))×\(size.height)")
                    var list = DisplayList()
                    view.draw(in: Rect(x: 0, y: 0, width: width, height: size.height), context: CheckRecorder.layoutContext(),
                              into: &list)
                    if let fault = PluginFaults.take() { return r.fail(fault.description + " (\(name), bounds \(Int(width))×\(size.height))") }
                }
            }
        }
        r.note("every size is finite, non-negative and within ±\(Int(ValueBounds.length)) pt; every canvas argument is usable")
    }
}
