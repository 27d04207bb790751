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
        /// The colour properties set to a dynamic colour; nil when none (most values), so a pass
        /// over a value without any pays one test. Changed only while the storage is unique.
        var dynamicColours: DynamicColourSettings?
        init(handle: OpaquePointer, type: PluginConfigurationType, dynamicColours: DynamicColourSettings? = nil) {
            self.handle = handle
            self.type = type
            self.dynamicColours = dynamicColours
        }
        deinit { type.destroyFunction(handle) }
    }

    private var storage: Storage

    /// Wraps a handle the plugin just created; the configuration owns it from now on.
    init(type: PluginConfigurationType, adopting handle: OpaquePointer) {
        storage = Storage(handle: handle, type: type)
    }

    /// Wraps a handle the plugin derived from `source`'s (a restyle, a hook's result): its colour
    /// properties hold what `source`'s did, so the dynamic colours carry over.
    private init(adopting handle: OpaquePointer, derivedFrom source: Storage) {
        self.init(storage: Storage(handle: handle, type: source.type, dynamicColours: source.dynamicColours))
    }

    /// The restyle the plugin returned, or `source` itself when it returned NULL.
    private init(restyled handle: OpaquePointer?, from source: Storage) {
        if let handle { self.init(adopting: handle, derivedFrom: source) } else { self.init(storage: source) }
    }

    private init(storage: Storage) { self.storage = storage }

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
        storage = Storage(handle: copy, type: storage.type, dynamicColours: storage.dynamicColours)
    }

    /// This value with its dynamic colours resolved for `traits`: itself when it has none or they
    /// already are (every pass but one after a change of appearance or contrast), else a copy
    /// whose colour properties were set again through the plugin's setters.
    @inline(__always)
    private func resolvingDynamicColours(for traits: @autoclosure () -> TraitCollection) -> Storage {
        guard let colours = storage.dynamicColours else { return storage }
        let traits = traits()
        guard colours.appearance != ColourAppearance(traits) else { return storage }
        return reResolved(colours, for: traits)
    }

    private func reResolved(_ colours: DynamicColourSettings, for traits: TraitCollection) -> Storage {
        guard let copy = storage.type.copyFunction(storage.handle) else { return storage }
        return Storage(handle: copy, type: storage.type, dynamicColours: colours.reResolving(on: copy, for: traits))
    }

    public func makeContentView() -> any ContentView { PluginContentView(configuration: self) }

    /// The plugin's `updated_for_state`; a plugin that returns NULL leaves the configuration as it was.
    /// Dynamic colours are resolved for the state's traits first, so the plugin restyles (and
    /// draws) the colour of the current appearance.
    public func updated(for state: any ConfigurationState) -> PluginConfiguration {
        let source = resolvingDynamicColours(for: state.traitCollection)
        let new = withABIState(state) { abi in
            PluginCallScope.with(source.type, state: abi) { source.type.updatedFunction(source.handle, abi) }
        }
        return PluginConfiguration(restyled: new, from: source)
    }

    /// The same for a cell's state, read where it is (no existential box).
    public func updated(forCellState state: CellConfigurationState) -> PluginConfiguration {
        let source = resolvingDynamicColours(for: state.traitCollection)
        let new = withUnsafePointer(to: state) {
            withABIState(cell: $0) { abi in PluginCallScope.with(source.type, state: abi) { source.type.updatedFunction(source.handle, abi) } }
        }
        return PluginConfiguration(restyled: new, from: source)
    }

    public var restyleIsPure: Bool { storage.type.restyleIsPure }

    /// The cell-level hook (UIKit's `updateConfiguration(using:)`), when the plugin has one:
    /// the configuration to apply instead of `self`, or nil to apply `self` unchanged.
    public func cellUpdateHookResult(for state: any ConfigurationState) -> PluginConfiguration? {
        guard let hook = storage.type.updateConfigurationHook else { return nil }
        let source = storage
        return withABIState(state) { abi in PluginCallScope.with(source.type, state: abi) { hook(source.handle, abi) } }.map { PluginConfiguration(adopting: $0, derivedFrom: source) }
    }

    public var inspectableProperties: [InspectableProperty] {
        let handle = storage.handle
        let type = storage.type
        return type.properties.map { property in
            InspectableProperty(name: property.name, value: value(of: property),
                                isCustomized: property.name.withCString { type.isCustomizedFunction(handle, $0) })
        }
    }

    /// A property's value through its getter; a colour still holding the dynamic colour it was
    /// set to keeps that colour's name, so a trace reads `systemOrange #FF9F0A`.
    private func value(of property: PluginProperty) -> PropertyValue {
        let value = property.value(of: storage.handle)
        guard let colours = storage.dynamicColours, let setting = colours.setting(of: property, holding: value),
              case .color(var colour) = value else { return value }
        colour.name = setting.colour.name
        return .color(colour)
    }

    /// The value of one property, read through its getter.
    public func value(of name: String) throws(ConfigurationPropertyError) -> PropertyValue {
        guard let property = storage.type.property(named: name) else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        return value(of: property)
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
        guard property.encoding == .color else { return try property.set(value, on: storage.handle) }
        try setColour(property, to: value)
    }

    /// Sets a colour property; a dynamic colour crosses resolved for the appearance this value's
    /// other dynamic colours show (light when it has none) and is remembered, a static one
    /// replaces any dynamic colour the property had.
    private mutating func setColour(_ property: PluginProperty, to value: PropertyValue) throws(ConfigurationPropertyError) {
        guard let colour = DynamicColourSettings.dynamicColour(in: value) else {
            try property.set(value, on: storage.handle)
            if storage.dynamicColours?.forget(property) == false { storage.dynamicColours = nil }
            return
        }
        let appearance = storage.dynamicColours?.appearance ?? .light
        try property.set(color: colour.resolved(with: appearance.traits), on: storage.handle)
        let setting = DynamicColourSettings.Setting(property: property, colour: colour)
        if storage.dynamicColours == nil {
            storage.dynamicColours = DynamicColourSettings(setting, appearance: appearance)
        } else {
            storage.dynamicColours?.record(setting)
        }
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
