import CCellHostABI
import CellKit

/// A plugin's configuration as a CellKit `ContentConfiguration`: a value type wrapping the
/// plugin's opaque handle. Copies share the handle until one is changed (copy-on-write through
/// the plugin's `copy`), and the last copy destroys it through the plugin's `destroy`, so a
/// plugin configuration behaves like any built-in value in the cell machinery.
public struct PluginConfiguration: ContentConfigurationFastPaths, Equatable {
    /// Owns one plugin handle; destroys it with the last reference.
    final class Storage: @unchecked Sendable {
        let handle: OpaquePointer
        let type: PluginConfigurationType
        init(handle: OpaquePointer, type: PluginConfigurationType) {
            self.handle = handle
            self.type = type
        }
        deinit { type.destroyFunction(handle) }
    }

    private var storage: Storage

    /// Wraps a handle the plugin just created; the configuration owns it from now on.
    init(type: PluginConfigurationType, adopting handle: OpaquePointer) {
        storage = Storage(handle: handle, type: type)
    }

    public var type: PluginConfigurationType { storage.type }
    public var typeIdentifier: String { storage.type.typeIdentifier }

    /// The plugin handle, valid as long as this value is alive and unchanged. Pass it only to
    /// functions that do not mutate it.
    public var handle: OpaquePointer { storage.handle }

    /// Makes the handle unique to this value before a mutation (copy-on-write).
    private mutating func makeUnique() throws(ConfigurationPropertyError) {
        if isKnownUniquelyReferenced(&storage) { return }
        guard let copy = storage.type.copyFunction(storage.handle) else {
            throw .invalidValue(property: typeIdentifier, reason: "the plugin's copy function returned NULL")
        }
        storage = Storage(handle: copy, type: storage.type)
    }

    public func makeContentView() -> any ContentView { PluginContentView(configuration: self) }

    /// The plugin's `updated_for_state`; a plugin that returns NULL leaves the configuration as it was.
    public func updated(for state: any ConfigurationState) -> PluginConfiguration {
        let type = storage.type
        let handle = storage.handle
        let new = withABIState(state) { type.updatedFunction(handle, $0) }
        return new.map { PluginConfiguration(type: type, adopting: $0) } ?? self
    }

    /// The same for a cell's state, read where it is (no existential box).
    public func updated(forCellState state: CellConfigurationState) -> PluginConfiguration {
        let type = storage.type
        let handle = storage.handle
        let new = withUnsafePointer(to: state) { withABIState(cell: $0) { type.updatedFunction(handle, $0) } }
        return new.map { PluginConfiguration(type: type, adopting: $0) } ?? self
    }

    public var restyleIsPure: Bool { storage.type.restyleIsPure }

    /// The cell-level hook (UIKit's `updateConfiguration(using:)`), when the plugin has one:
    /// the configuration to apply instead of `self`, or nil to apply `self` unchanged.
    public func cellUpdateHookResult(for state: any ConfigurationState) -> PluginConfiguration? {
        let type = storage.type
        guard let hook = type.updateConfigurationHook else { return nil }
        let handle = storage.handle
        return withABIState(state) { hook(handle, $0) }.map { PluginConfiguration(type: type, adopting: $0) }
    }

    public var inspectableProperties: [InspectableProperty] {
        let handle = storage.handle
        let type = storage.type
        return type.properties.map { property in
            InspectableProperty(name: property.name, value: property.value(of: handle),
                                isCustomized: property.name.withCString { type.isCustomizedFunction(handle, $0) })
        }
    }

    /// The value of one property, read through its getter.
    public func value(of name: String) throws(ConfigurationPropertyError) -> PropertyValue {
        guard let property = storage.type.property(named: name) else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        return property.value(of: storage.handle)
    }

    /// `configuration` when it is a plugin configuration. The dynamic type is compared, not cast:
    /// casting an existential is a runtime type check, and every pass asks several times.
    static func from(_ configuration: any ContentConfiguration) -> PluginConfiguration? {
        func opened<C: ContentConfiguration>(_ c: C) -> PluginConfiguration? {
            C.self == PluginConfiguration.self ? unsafeBitCast(c, to: PluginConfiguration.self) : nil
        }
        return opened(configuration)
    }

    /// One handle: the same plugin value, so its getters answer the same.
    public func isIdentical(to other: any ContentConfiguration) -> Bool {
        PluginConfiguration.from(other).map { $0.storage === storage } ?? false
    }

    public func isEqual(to other: any ContentConfiguration) -> Bool {
        PluginConfiguration.from(other).map { $0 == self } ?? false
    }

    public static func == (a: PluginConfiguration, b: PluginConfiguration) -> Bool {
        a.storage === b.storage
            || (a.storage.type === b.storage.type && a.storage.type.equalFunction(a.storage.handle, b.storage.handle))
    }

    public func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> PluginConfiguration {
        var copy = self
        try copy.set(name, to: value)
        return copy
    }

    /// Sets a property in place, copying the handle first only if another value shares it.
    public mutating func set(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) {
        guard let property = storage.type.property(named: name) else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        if property.isReadOnly { throw .invalidValue(property: name, reason: "the property is read-only") }
        try makeUnique()
        try property.set(value, on: storage.handle)
    }

    public func performing(_ action: String, arguments: [PropertyValue]) throws(ConfigurationPropertyError) -> PluginConfiguration {
        guard let pluginAction = storage.type.action(named: action) else {
            throw .unknownAction(action, typeIdentifier: typeIdentifier)
        }
        var copy = self
        try copy.makeUnique()
        try pluginAction.perform(on: copy.storage.handle, arguments: arguments)
        return copy
    }
}
