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
        setExtraTraits(slot, of: type, traits: context.map { UnsafeRawPointer($0) + traitsOffsetInContext },
                       extra: context.map { UnsafeRawPointer($0) + extraOffsetInContext })
        defer {
            slot.pointee.canvas = saved.canvas
            slot.pointee.context = saved.context
            slot.pointee.owner = saved.owner
            slot.pointee.traits = saved.traits
            slot.pointee.extra_traits = saved.extra_traits
        }
        return body()
    }

    /// Runs `body`, a call of `type` handed `state` (`updated_for_state`, `update_configuration`),
    /// with the state's traits the ones host services answer for with their extra traits. Only
    /// those two fields change: canvas, context and owner stay as they were, so what the services
    /// refuse and whom faults name is as before.
    static func with<R>(_ type: PluginConfigurationType, state: UnsafePointer<cellhost_state>, _ body: () -> R) -> R {
        let slot = cellhost_active_call_slot()!
        let saved = (slot.pointee.traits, slot.pointee.extra_traits)
        setExtraTraits(slot, of: type, traits: UnsafeRawPointer(state) + traitsOffsetInState,
                       extra: UnsafeRawPointer(state) + extraOffsetInState)
        defer { (slot.pointee.traits, slot.pointee.extra_traits) = saved }
        return body()
    }

    private static let traitsOffsetInContext = MemoryLayout<cellhost_context>.offset(of: \.traits)!
    private static let extraOffsetInContext = MemoryLayout<cellhost_context>.offset(of: \.extra_traits)!
    private static let traitsOffsetInState = MemoryLayout<cellhost_state>.offset(of: \.traits)!
    private static let extraOffsetInState = MemoryLayout<cellhost_state>.offset(of: \.extra_traits)!

    /// Points the slot at the traits of the host's own state or context, or at nothing when the
    /// plugin was built against an ABI without extra traits (it gets the answers it always got).
    private static func setExtraTraits(_ slot: UnsafeMutablePointer<cellhost_active_call>, of type: PluginConfigurationType,
                                       traits: UnsafeRawPointer?, extra: UnsafeRawPointer?) {
        guard type.readsExtraTraits, let traits, let extra else {
            slot.pointee.traits = nil
            slot.pointee.extra_traits = nil
            return
        }
        slot.pointee.traits = traits.assumingMemoryBound(to: cellhost_traits.self)
        slot.pointee.extra_traits = extra.assumingMemoryBound(to: cellhost_extra_traits.self)
    }

    /// The traits a host service answers for: `traits` (NULL: the defaults), with the extra
    /// traits of the running call's state or context when `traits` equals that state's or
    /// context's traits (by value, so a plugin that copied them is answered alike), and the
    /// plugin reads extra traits. Otherwise the base level, regular weight and phone.
    static func traitsForService(_ traits: UnsafePointer<cellhost_traits>?) -> TraitCollection {
        let base = TraitCollection(abi: traits)
        guard let extra = extraTraits(for: traits) else { return base }
        return extra.applied(to: base)
    }

    /// The running call's extra traits when they apply to `traits` (see `traitsForService`).
    static func extraTraits(for traits: UnsafePointer<cellhost_traits>?) -> cellhost_extra_traits? {
        guard let traits else { return nil }
        let slot = cellhost_active_call_slot()!
        guard let callTraits = slot.pointee.traits, let extra = slot.pointee.extra_traits,
              callTraits == traits || callTraits.pointee.hasSameValues(as: traits.pointee) else { return nil }
        return extra.pointee
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
