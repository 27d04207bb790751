@_exported import CellHostPluginABI

/// A content configuration written in Swift: a plain value type with defaults (`init()`), its
/// properties and actions declared by key path, and a restyling for each state. The SDK turns
/// it into the C descriptors of plugin.h; no Swift type crosses the ABI.
///
/// Customised ("locked") properties are the SDK's business: a property set by the host is
/// remembered, and after `updated(for:)` the SDK puts its value back, so `updated(for:)` can
/// restyle freely.
public protocol PluginCell: Equatable {
    associatedtype View: PluginCellView where View.Configuration == Self

    /// Reverse-DNS, unique: "com.example.badge".
    static var typeIdentifier: String { get }
    static var displayName: String { get }
    static var properties: [CellProperty<Self>] { get }
    static var actions: [CellAction<Self>] { get }

    /// The default configuration, nothing customised.
    init()

    /// A copy restyled for `state` (must not depend on anything but `self` and `state`).
    func updated(for state: PluginState) -> Self

    /// The `CELLHOST_CONFIG_PURE_RESTYLE` promise: `updated(for:)` sets every value it restyles
    /// from `state` and the values the host set alone (never from an earlier restyle) and does
    /// nothing else, so the host may hand back a restyle it already has for an equal state.
    /// `cellhost validate` checks it. Default false.
    static var restyleIsPure: Bool { get }
}

extension PluginCell {
    public static var displayName: String { typeIdentifier }
    public static var actions: [CellAction<Self>] { [] }
    public static var restyleIsPure: Bool { false }
}

/// The content view of a `PluginCell`. Created with the first configuration it shows and drawn
/// from it at once.
public protocol PluginCellView: AnyObject {
    associatedtype Configuration: PluginCell

    init(configuration: Configuration)
    /// Setting applies the new configuration at once.
    var configuration: Configuration { get set }
    /// Whether this view can show `configuration` (reuse) or the host must make a new view.
    func supports(_ configuration: Configuration) -> Bool
    /// Self-sizing: the size wanted at `target.width`.
    func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size
    /// Draws the current configuration, `bounds` at the origin.
    func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas)
}

extension PluginCellView {
    public func supports(_ configuration: Configuration) -> Bool { true }
}
