/// What one update pass of a cell or header did (UIKit §6 steps 1–4), so the engine can trace
/// the whole cycle without re-deriving it. Configurations are kept as values; property diffs
/// are computed only when asked for, so an untraced pass pays nothing for them.
public struct ConfigurationUpdate<State: ConfigurationState & Hashable> {
    /// What the pass did with the content view.
    public enum ViewAction: String, Hashable, Sendable {
        /// There was no view: one was made from the configuration.
        case created
        /// The view `supports()` the configuration and took it.
        case reused
        /// The view did not support it: a new view from `makeContentView()` took its place.
        case replaced
        /// The configuration was removed, and the view with it.
        case removed
        /// No content configuration before or after.
        case none
    }

    /// What a pass did with the content view: the part of the record a caller that keeps no
    /// configuration stages reads (`ConfigurableView.runPendingUpdate()`).
    public struct Outcome: Sendable, Equatable {
        public var supportsAnswer: Bool?
        public var viewAction: ViewAction
    }

    /// The state the previous pass applied; nil on the first pass.
    public var previousState: State?
    public var state: State
    /// `setNeedsUpdateConfiguration()` calls and state changes folded into this one pass.
    public var coalescedRequests: Int
    public var isFirstUpdate: Bool

    public var contentBeforeUpdate: (any ContentConfiguration)?
    /// After `updated(for:)` (the same as before when automatic updates are off).
    public var contentAfterUpdate: (any ContentConfiguration)?
    /// After `updateConfiguration(using:)` and `configurationUpdateHandler`: what was applied.
    public var contentAfterHooks: (any ContentConfiguration)?
    public var backgroundBeforeUpdate: BackgroundConfiguration?
    public var backgroundAfterUpdate: BackgroundConfiguration?
    public var backgroundAfterHooks: BackgroundConfiguration?

    /// The old content view's `supports(new configuration)` answer; nil when there was no view
    /// or no configuration to ask about.
    public var supportsAnswer: Bool?
    public var viewAction: ViewAction

    /// Per property of the content configuration: old → new and why.
    public func contentChanges(setByEvent: Set<String> = []) -> [PropertyChange] {
        PropertyChange.changes(before: contentBeforeUpdate?.inspectableProperties ?? [],
                               afterUpdate: contentAfterUpdate?.inspectableProperties ?? [],
                               afterHooks: contentAfterHooks?.inspectableProperties ?? [], setByEvent: setByEvent)
    }

    /// Per property of the background configuration: old → new and why.
    public func backgroundChanges(setByEvent: Set<String> = []) -> [PropertyChange] {
        PropertyChange.changes(before: backgroundBeforeUpdate?.inspectableProperties ?? [],
                               afterUpdate: backgroundAfterUpdate?.inspectableProperties ?? [],
                               afterHooks: backgroundAfterHooks?.inspectableProperties ?? [], setByEvent: setByEvent)
    }
}
