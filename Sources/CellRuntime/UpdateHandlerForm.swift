/// Which of UIKit's two ways of writing a `configurationUpdateHandler` a stream's handler takes.
///
/// UIKit leaves the choice to the code inside the handler, and the two give different looks once
/// the state returns: a property set on the cell's *stored* configuration is customised there,
/// so `updated(for:)` never restyles it again (locked), while a configuration built afresh each
/// pass carries only what this pass set. The stream names the form so the trace can say which
/// one ran and why a colour stayed or came back.
public enum UpdateHandlerForm: String, Sendable, Equatable, CaseIterable {
    /// Starts from the cell's stored configuration and sets properties on it
    /// (`var c = cell.contentConfiguration; c.x = …; cell.contentConfiguration = c`): what a rule
    /// sets stays locked after its state has gone.
    case modify
    /// Starts each pass from the row's configuration as its data sets it up, restyled for the
    /// state (UIKit's `defaultContentConfiguration().updated(for: state)` plus what the cell
    /// provider and events set), then sets what the state's rules ask: when the state returns,
    /// so does the default look. Only properties the data or an event set stay locked.
    case fresh
}
