import CellIO
import CellRuntime
import CellPlugins

/// The JSON form of a loaded plugin, as `cellhost inspect --json` prints it and as the inspect
/// worker sends it to the supervisor (schema "cellhost.plugin/1").
enum PluginReportJSON {
    static let schema = "cellhost.plugin/1"

    static func loaded(_ plugin: LoadedPlugin) -> JSON {
        .object([
            ("schema", .string(schema)),
            ("ok", .bool(true)),
            ("path", .string(plugin.path)),
            ("id", .string(plugin.pluginID)),
            ("name", .string(plugin.name)),
            ("version", .string(plugin.version)),
            ("vendor", .string(plugin.vendor)),
            ("description", plugin.summary.map { .string($0) } ?? .null),
            ("abi", .string(plugin.abiVersion)),
            ("loadMicroseconds", .int(plugin.loadDuration.components.seconds * 1_000_000
                + plugin.loadDuration.components.attoseconds / 1_000_000_000_000)),
            ("types", .array(plugin.types.map(type))),
        ])
    }

    static func type(_ type: PluginConfigurationType) -> JSON {
        .object([
            ("id", .string(type.typeIdentifier)),
            ("displayName", type.displayName.map { .string($0) } ?? .null),
            ("properties", .array(type.properties.map { p in
                .object([("name", .string(p.name)), ("encoding", .string(p.encoding.rawValue)),
                         ("type", .string(p.encoding.kindName)), ("cType", .string(p.encoding.cTypeName)),
                         ("readOnly", .bool(p.isReadOnly))])
            })),
            ("actions", .array(type.actions.map { a in
                .object([("name", .string(a.name)), ("signature", .string(a.signature)),
                         ("encoding", .string(a.arguments.map(\.rawValue).joined())),
                         ("arguments", .array(zip(a.argumentNames, a.arguments).map { name, encoding in
                             .object([("name", .string(name)), ("encoding", .string(encoding.rawValue)),
                                      ("type", .string(encoding.kindName))])
                         }))])
            })),
            ("cellUpdateHook", .bool(type.hasUpdateConfigurationHook)),
            ("pureRestyle", .bool(type.restyleIsPure)),
        ])
    }

    /// A refusal or failure: the path and the one-sentence reason.
    static func failure(path: String, error: String, outcome: String) -> JSON {
        .object([("schema", .string(schema)), ("ok", .bool(false)), ("path", .string(path)),
                 ("outcome", .string(outcome)), ("error", .string(error))])
    }
}
