import CCellHostABI
import CellKit

/// A plugin's content view as a CellKit `ContentView`: owns the plugin's view handle, keeps the
/// applied configuration alive, and forwards sizing and drawing with host contexts and canvases.
public final class PluginContentView: ContentView {
    private let type: PluginConfigurationType
    private let handle: OpaquePointer?
    private var applied: PluginConfiguration

    /// A view drawing `configuration` from the start (no second set needed).
    public init(configuration: PluginConfiguration) {
        type = configuration.type
        applied = configuration
        handle = type.makeView(configuration.handle)
        if handle == nil {
            PluginHostEnvironment.log(PluginLogMessage(
                pluginID: type.pluginID, level: .error,
                text: "\(type.typeIdentifier): the view's make function returned NULL; the view draws nothing"))
        }
    }

    deinit { if let handle { type.viewDestroy(handle) } }

    /// Setting applies at once. A configuration of another type is refused with a log message
    /// (the cell asks `supports` first, so this only happens when a caller skips that step).
    public var configuration: any ContentConfiguration {
        get { applied }
        set {
            guard let new = PluginConfiguration.from(newValue), new.type === type else {
                PluginHostEnvironment.log(PluginLogMessage(
                    pluginID: type.pluginID, level: .error,
                    text: "\(type.typeIdentifier) view cannot show a \(newValue.typeIdentifier) configuration; kept the old one"))
                return
            }
            applied = new
            if let handle { type.viewSetConfiguration(handle, new.handle) }
        }
    }

    /// The plugin's `supports` rule, for configurations of this view's type; anything else is
    /// not supported.
    public func supports(_ configuration: any ContentConfiguration) -> Bool {
        guard let candidate = PluginConfiguration.from(configuration), candidate.type === type, let handle else { return false }
        return type.viewSupports(handle, candidate.handle)
    }

    public func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size {
        guard let handle else { return Size(width: targetSize.width, height: 0) }
        let size = HostCallContext.with(context) { abiContext in
            PluginCallScope.with(type, context: abiContext) { type.viewSizeThatFits(handle, cellhost_size(targetSize), abiContext) }
        }
        if let problem = PluginValueCheck.size(size) {
            PluginCallScope.with(type, context: nil) { PluginCallScope.fault("size_that_fits", "returned " + problem) }
            return Size(width: max(0, min(targetSize.width, ValueBounds.length)), height: 0)
        }
        return size.size
    }

    public func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        guard let handle else { return }
        HostCallContext.with(context) { abiContext in
            HostCanvas.recording(into: &list, direction: context.traits.layoutDirection) { canvas in
                PluginCallScope.with(type, context: abiContext, canvas: canvas) {
                    type.viewDraw(handle, cellhost_rect(bounds), abiContext, canvas)
                }
            }
        }
    }
}
