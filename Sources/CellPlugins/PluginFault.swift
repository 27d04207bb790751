import CCellHostABI
import Synchronization
import Glibc

/// A value a plugin handed the host that the host refused to use: a size that is not a finite
/// length, a canvas argument out of range, a colour with a NaN component. The host substitutes a
/// harmless value (or drops the drawing command) so its own code never traps, and the run that
/// made the call ends as the plugin's fault, naming the plugin, the call and the value.
public struct PluginFault: Error, Sendable, Equatable, CustomStringConvertible {
    public var pluginID: String
    /// "com.example.badge size_that_fits", "com.example.badge draw: stroke".
    public var call: String
    /// What was wrong with the value: "returned width inf".
    public var problem: String

    public init(pluginID: String, call: String, problem: String) {
        self.pluginID = pluginID
        self.call = call
        self.problem = problem
    }

    public var description: String { "plugin \(pluginID) handed the host an unusable value: \(call) \(problem)" }
}

/// The faults plugins committed on each thread, kept until the caller that ran the plugin asks.
/// Only the first fault of a thread is kept (the rest follow from it); asking is one thread-local
/// read while none is pending, so a run can ask after every event.
public enum PluginFaults {
    private static let firstByThread = Mutex<[pthread_t: PluginFault]>([:])

    /// Keeps `fault` as this thread's, unless one is already pending.
    static func report(_ fault: PluginFault) {
        let slot = cellhost_active_call_slot()!
        guard slot.pointee.fault_pending == 0 else { return }
        slot.pointee.fault_pending = 1
        firstByThread.withLock { $0[pthread_self()] = fault }
    }

    /// This thread's pending fault, cleared; nil when plugins handed back nothing unusable.
    public static func take() -> PluginFault? {
        let slot = cellhost_active_call_slot()!
        guard slot.pointee.fault_pending != 0 else { return nil }
        slot.pointee.fault_pending = 0
        return firstByThread.withLock { $0.removeValue(forKey: pthread_self()) }
    }
}
