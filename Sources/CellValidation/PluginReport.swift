import CellIO
import CellPlugins

/// What inspecting a plugin file found: its metadata, types, properties and actions, or why it
/// could not be described. The JSON form (schema "cellhost.plugin/1") is both what the inspect
/// worker sends its supervisor and what `cellhost inspect --json` prints, so the two cannot
/// drift; `text` is the same report as tables for a person.
public struct PluginReport: Sendable, Equatable {
    public static let schema = "cellhost.plugin/1"

    /// How the inspection ended; only `loaded` carries a description of the plugin.
    public enum Outcome: String, Sendable {
        /// The plugin loaded and described itself.
        case loaded
        /// The loader refused the file: missing, not a plugin, wrong ABI, invalid descriptor.
        case refused
        /// The plugin crashed, exited, hung or flooded its output while loading, or the
        /// worker could not be started.
        case failed
        /// `inspect --no-load`: the file has no metadata section (an older SDK); it may still load.
        case noMetadata
    }

    /// The value of "source" in a report read from the metadata section instead of a load.
    public static let metadataSource = "metadata"

    /// The report as published; invariant: `ok` is true exactly when `outcome` is `loaded`.
    public let json: JSON

    public init(json: JSON) { self.json = json }

    public init(loaded plugin: LoadedPlugin) {
        json = .object([
            ("schema", .string(Self.schema)),
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
            ("types", .array(plugin.types.map(Self.type))),
        ])
    }

    /// What the file's metadata section says, for `inspect --no-load`: the members a loaded
    /// report has where they overlap, types with their ids alone, and "source": "metadata" in
    /// place of the load time, so no reader takes it for a description the plugin gave when run.
    public init(path: String, metadata: PluginMetadata) {
        json = .object([
            ("schema", .string(Self.schema)),
            ("ok", .bool(true)),
            ("source", .string(Self.metadataSource)),
            ("path", .string(path)),
            ("id", .string(metadata.id)),
            ("name", .string(metadata.name)),
            ("version", .string(metadata.version)),
            ("vendor", .string(metadata.vendor)),
            ("description", metadata.description.map { .string($0) } ?? .null),
            ("abi", .string(metadata.abi)),
            ("metadataFormat", .int(metadata.formatVersion)),
            ("types", .array(metadata.typeIdentifiers.map { .object([("id", .string($0))]) })),
        ])
    }

    /// Whether the report was read from the metadata section rather than from a loaded plugin.
    public var isFromMetadata: Bool { json["source"]?.stringValue == Self.metadataSource }

    /// A refusal or failure: the path and the one-sentence reason, which names the path.
    public init(path: String, error: String, outcome: Outcome) {
        precondition(outcome != .loaded, "a loaded plugin is reported with init(loaded:)")
        json = .object([("schema", .string(Self.schema)), ("ok", .bool(false)), ("path", .string(path)),
                        ("outcome", .string(outcome.rawValue)), ("error", .string(error))])
    }

    public var outcome: Outcome {
        if json["ok"]?.boolValue == true { return .loaded }
        return json["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:)) ?? .failed
    }

    /// Why the plugin could not be described; nil when it loaded.
    public var error: String? {
        guard outcome != .loaded else { return nil }
        return json["error"]?.stringValue ?? "\(json["path"]?.stringValue ?? "the plugin"): inspection failed"
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

    /// The report for a person: metadata, then one table per type. Empty unless loaded.
    public var text: String {
        guard outcome == .loaded else { return "" }
        let report = json
        func field(_ key: String) -> String { report[key]?.stringValue ?? "" }
        var out = "Plugin   \(field("id"))  \(field("name")) \(field("version")) by \(field("vendor"))\n"
        if let summary = report["description"]?.stringValue { out += "         \(summary)\n" }
        if isFromMetadata {
            out += "ABI      \(field("abi"))  read from its \(PluginMetadata.sectionName) section; the plugin was not loaded\n"
        } else {
            let micros = report["loadMicroseconds"]?.intValue ?? 0
            out += "ABI      \(field("abi"))  loaded in \(micros / 1000).\(String(micros % 1000 / 100)) ms\n"
        }
        out += "File     \(field("path"))\n"
        for type in report["types"]?.arrayValue ?? [] {
            let id = type["id"]?.stringValue ?? ""
            let name = type["displayName"]?.stringValue.flatMap { $0 == id ? nil : " (\($0))" } ?? ""
            out += "\nType \(id)\(name)\n"
            guard type["properties"] != nil else { continue }
            let properties = (type["properties"]?.arrayValue ?? []).map { p in
                [p["name"]?.stringValue ?? "", p["type"]?.stringValue ?? "", p["encoding"]?.stringValue ?? "",
                 p["readOnly"]?.boolValue == true ? "read-only" : ""]
            }
            out += Self.columns(["PROPERTY", "TYPE", "ENCODING", ""], properties)
            let actions = (type["actions"]?.arrayValue ?? []).map { a in
                [a["signature"]?.stringValue ?? "", a["encoding"]?.stringValue.map { $0.isEmpty ? "-" : $0 } ?? ""]
            }
            if !actions.isEmpty { out += Self.columns(["ACTION", "ENCODING"], actions) }
            if type["cellUpdateHook"]?.boolValue == true { out += "  has a cell-level update_configuration hook\n" }
            if type["pureRestyle"]?.boolValue == true {
                out += "  restyle declared pure: cells reuse a restyle made for an equal state\n"
            }
        }
        return out
    }

    /// Left-aligned columns, two spaces apart, indented by two; no line ends in a space.
    private static func columns(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            var line = "  "
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
