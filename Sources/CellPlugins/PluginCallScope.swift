import CCellHostABI
import CellKit

/// The plugin view call in progress on this thread (size_that_fits or draw), so the host
/// services that take a canvas or a context accept only the ones handed to that call. A canvas
/// or context lives on the host's stack for the call alone: used from a plugin's own thread, or
/// kept and used after the call returned, it would be a dangling pointer. Such a use is refused
/// and logged, never dereferenced. Values the call hands back that the host cannot use become
/// this thread's `PluginFault`.
enum PluginCallScope {
    /// Runs `body` as `call` of `type`'s view with `context` (and `canvas`, when drawing) the
    /// ones its host services accept; the previous call's are restored afterwards.
    static func with<R>(_ type: PluginConfigurationType, context: UnsafePointer<cellhost_context>?,
                        canvas: OpaquePointer? = nil, _ body: () -> R) -> R {
        let slot = cellhost_active_call_slot()!
        let saved = slot.pointee
        slot.pointee.canvas = canvas.map { UnsafeRawPointer($0) }
        slot.pointee.context = context.map { UnsafeRawPointer($0) }
        slot.pointee.owner = UnsafeRawPointer(Unmanaged.passUnretained(type).toOpaque())
        defer {
            slot.pointee.canvas = saved.canvas
            slot.pointee.context = saved.context
            slot.pointee.owner = saved.owner
        }
        return body()
    }

    /// The type whose view call runs on this thread; nil outside one.
    static var owner: PluginConfigurationType? {
        cellhost_active_call_slot()!.pointee.owner.map {
            Unmanaged<PluginConfigurationType>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// The canvas behind `pointer` when it is the one the running draw call was handed;
    /// otherwise nil, and the refusal of `service` is logged.
    static func canvas(_ pointer: OpaquePointer?, for service: StaticString) -> UnsafeMutablePointer<HostCanvas>? {
        let slot = cellhost_active_call_slot()!
        guard let pointer, let active = slot.pointee.canvas, UnsafeRawPointer(pointer) == active else {
            refuse(service, what: "canvas", given: pointer.map { UnsafeRawPointer($0) }, active: slot.pointee.canvas)
            return nil
        }
        return HostCanvas.from(pointer)
    }

    /// The layout context behind `context` when it is the one the running call was handed;
    /// otherwise nil, and the refusal of `service` is logged.
    static func context(_ context: UnsafePointer<cellhost_context>?, for service: StaticString) -> UnsafePointer<LayoutContext>? {
        let slot = cellhost_active_call_slot()!
        guard let context, let active = slot.pointee.context, UnsafeRawPointer(context) == active else {
            refuse(service, what: "context", given: context.map { UnsafeRawPointer($0) }, active: slot.pointee.context)
            return nil
        }
        return HostCallContext.from(context)
    }

    /// Records `problem` with a value `call` handed back as the running plugin's fault.
    static func fault(_ call: @autoclosure () -> String, _ problem: String) {
        let owner = owner
        PluginFaults.report(PluginFault(pluginID: owner?.pluginID ?? "plugin",
                                        call: (owner.map { $0.typeIdentifier + " " } ?? "") + call(), problem: problem))
    }

    private static func refuse(_ service: StaticString, what: String, given: UnsafeRawPointer?, active: UnsafeRawPointer?) {
        let why = given == nil ? "a NULL \(what)"
            : active == nil ? "a \(what) outside the view call it was handed to (from a thread of the plugin's own, or after the call returned)"
            : "a \(what) other than the one the running view call was handed"
        let owner = owner
        PluginHostEnvironment.log(PluginLogMessage(
            pluginID: owner?.pluginID ?? "cellhost", level: .error,
            text: "host service \(service) refused: it was called with \(why)"))
    }
}
