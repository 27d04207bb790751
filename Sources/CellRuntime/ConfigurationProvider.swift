import CellKit

/// Makes the first configuration of an item from its type id. The built-in list content comes
/// from CellKit; plugin types come from loaded plugins. The engine asks one provider and does not
/// care which.
public protocol ConfigurationProvider: Sendable {
    /// Type ids this provider makes.
    var typeIdentifiers: [String] { get }
    /// A fresh configuration of `type` for an item with optional `style`, in a list of `appearance`.
    func makeConfiguration(type: String, style: String?, appearance: ListEnvironment) throws(ConfigurationProviderError)
        -> any ContentConfiguration
}

public struct ConfigurationProviderError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `com.cellhost.list-content`: `ListContentConfiguration`, the style named by the item or the
/// default style of the list appearance (`defaultContentConfiguration()`).
public struct ListContentProvider: ConfigurationProvider {
    public init() {}

    public var typeIdentifiers: [String] { [ItemDescription.listContentType] }

    public func makeConfiguration(type: String, style: String?, appearance: ListEnvironment) throws(ConfigurationProviderError)
        -> any ContentConfiguration {
        let list = ListAppearance(appearance) ?? .plain
        let resolved: ListContentConfiguration.Style
        if let name = style {
            guard let s = ListContentConfiguration.Style(rawValue: name) else {
                throw ConfigurationProviderError("\"\(name)\" is not a list content style")
            }
            resolved = s
        } else {
            resolved = list.defaultContentStyle(for: .cell)
        }
        return ListContentConfiguration(style: resolved)
            .updated(for: CellConfigurationState(traitCollection: TraitCollection(listEnvironment: appearance)))
    }

    /// A background factory style by name (`listGroupedCell`, `clear`, …).
    public static func background(style name: String) throws(ConfigurationProviderError) -> BackgroundConfiguration {
        guard let s = BackgroundConfiguration.Style(rawValue: name) else {
            throw ConfigurationProviderError("\"\(name)\" is not a background style")
        }
        return BackgroundConfiguration(style: s).updated(for: CellConfigurationState())
    }
}

/// Dispatches by type id to the provider that makes it.
public struct ConfigurationCatalog: Sendable {
    private var providers: [String: any ConfigurationProvider] = [:]

    public init(_ providers: [any ConfigurationProvider] = [ListContentProvider()]) {
        for p in providers { add(p) }
    }

    public mutating func add(_ provider: any ConfigurationProvider) {
        for id in provider.typeIdentifiers { providers[id] = provider }
    }

    public var typeIdentifiers: [String] { providers.keys.sorted() }

    public func makeConfiguration(type: String, style: String?, appearance: ListEnvironment) throws(ConfigurationProviderError)
        -> any ContentConfiguration {
        guard let provider = providers[type] else {
            let known = typeIdentifiers
            throw ConfigurationProviderError("no loaded plugin provides type \"\(type)\" (known types: \(known.joined(separator: ", ")))"
                + Suggestion.hint(for: type, in: known))
        }
        return try provider.makeConfiguration(type: type, style: style, appearance: appearance)
    }
}
