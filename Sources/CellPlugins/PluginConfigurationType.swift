import CCellHostABI
import CellKit

/// A configuration type a loaded plugin provides, validated, with its functions resolved (each
/// property's and action's cif is prepared on its first call). Lives as long as the process
/// (plugins are never unloaded), so configurations and views can hold it without ownership concerns.
public final class PluginConfigurationType: @unchecked Sendable {
    public let typeIdentifier: String
    public let displayName: String?
    public let properties: [PluginProperty]
    public let actions: [PluginAction]
    /// The id of the plugin that provides the type.
    public let pluginID: String
    /// The plugin promised `CELLHOST_CONFIG_PURE_RESTYLE`: a cell may reuse an earlier restyle.
    public let restyleIsPure: Bool
    /// The plugin was built against ABI 1.2 or later (its type's header says so): the host
    /// services answer it for the extra traits too; an older plugin gets the answers it was built for.
    let readsExtraTraits: Bool
    let propertyIndex: [String: Int]
    let actionIndex: [String: Int]

    // Lifecycle (all required; checked at load).
    let makeDefaultFunction: @convention(c) (UnsafePointer<cellhost_config_type>?) -> OpaquePointer?
    let descriptor: UnsafePointer<cellhost_config_type>
    let copyFunction: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let destroyFunction: @convention(c) (OpaquePointer?) -> Void
    let equalFunction: @convention(c) (OpaquePointer?, OpaquePointer?) -> Bool
    let updatedFunction: @convention(c) (OpaquePointer?, UnsafePointer<cellhost_state>?) -> OpaquePointer?
    let isCustomizedFunction: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Bool
    let updateConfigurationHook: (@convention(c) (OpaquePointer?, UnsafePointer<cellhost_state>?) -> OpaquePointer?)?
    // The content view.
    let makeView: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let viewSupports: @convention(c) (OpaquePointer?, OpaquePointer?) -> Bool
    let viewSetConfiguration: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    let viewSizeThatFits: @convention(c) (OpaquePointer?, cellhost_size, UnsafePointer<cellhost_context>?) -> cellhost_size
    let viewDraw: @convention(c) (OpaquePointer?, cellhost_rect, UnsafePointer<cellhost_context>?, OpaquePointer?) -> Void
    let viewDestroy: @convention(c) (OpaquePointer?) -> Void

    init(typeIdentifier: String, displayName: String?, pluginID: String,
         properties: [PluginProperty], actions: [PluginAction],
         type t: cellhost_config_type, descriptor: UnsafePointer<cellhost_config_type>, view v: cellhost_view_type) {
        self.descriptor = descriptor
        self.typeIdentifier = typeIdentifier
        self.displayName = displayName
        self.pluginID = pluginID
        self.properties = properties
        self.actions = actions
        propertyIndex = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.name, $0) })
        actionIndex = Dictionary(uniqueKeysWithValues: actions.enumerated().map { ($1.name, $0) })
        // The loader checked every required function is present.
        makeDefaultFunction = t.make_default!
        copyFunction = t.copy!
        destroyFunction = t.destroy!
        equalFunction = t.equal!
        updatedFunction = t.updated_for_state!
        isCustomizedFunction = t.is_customized!
        updateConfigurationHook = t.update_configuration
        restyleIsPure = t.flags & UInt32(CELLHOST_CONFIG_PURE_RESTYLE) != 0
        readsExtraTraits = t.header.abi_minor >= 2
        makeView = v.make!
        viewSupports = v.supports!
        viewSetConfiguration = v.set_configuration!
        viewSizeThatFits = v.size_that_fits!
        viewDraw = v.draw!
        viewDestroy = v.destroy!
    }

    public func property(named name: String) -> PluginProperty? { propertyIndex[name].map { properties[$0] } }
    public func action(named name: String) -> PluginAction? { actionIndex[name].map { actions[$0] } }

    /// A new configuration with the plugin's defaults.
    public func makeDefault() -> PluginConfiguration? {
        makeDefaultFunction(descriptor).map { PluginConfiguration(type: self, adopting: $0) }
    }

    /// Whether the type has the cell-level `update_configuration` hook.
    public var hasUpdateConfigurationHook: Bool { updateConfigurationHook != nil }
}
