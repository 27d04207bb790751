import CellPlugins

/// The check that what a plugin declares in its metadata section (read from the file, as
/// `inspect --no-load` does) is what it says when it runs: a tool that trusts the section must
/// not be misled about the plugin it would load.
enum MetadataChecks {
    /// Every field the section and the loaded descriptor share must be equal; a missing section
    /// is only a warning, because plugins built with an older SDK have none and still load.
    static func metadataMatchesDescriptor(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        r.step("reading the \(PluginMetadata.sectionName) section of \(r.path)")
        let metadata: PluginMetadata
        do {
            metadata = try PluginMetadata.read(path: r.path)
        } catch {
            if error.kind == .noSection {
                r.warn("no \(PluginMetadata.sectionName) section, so `cellhost inspect --no-load` cannot describe the plugin "
                       + "(built with an older SDK?): declare it with CELLHOST_METADATA (C), plugin_metadata! (Rust) "
                       + "or a C file beside a Swift plugin")
            } else {
                r.fail(error.description)
            }
            return
        }
        let pairs: [(String, String, String)] = [
            ("id", metadata.id, plugin.pluginID),
            ("name", metadata.name, plugin.name),
            ("version", metadata.version, plugin.version),
            ("vendor", metadata.vendor, plugin.vendor),
            ("description", metadata.description ?? "(none)", plugin.summary.flatMap { $0.isEmpty ? nil : $0 } ?? "(none)"),
            ("abi", metadata.abi, plugin.abiVersion),
            ("types", metadata.typeIdentifiers.joined(separator: ", "), plugin.types.map(\.typeIdentifier).joined(separator: ", ")),
        ]
        let mismatches = pairs.filter { $0.1 != $0.2 }
        for (field, declared, running) in mismatches {
            r.fail("the metadata section's \(field) is \"\(declared)\", but the loaded plugin's descriptor says \"\(running)\"")
        }
        guard mismatches.isEmpty else { return }
        r.note("the \(PluginMetadata.sectionName) section (format \(metadata.formatVersion)) matches the descriptor: "
               + "id, name, version, vendor, description, ABI and \(metadata.typeIdentifiers.count) type id(s)")
    }
}
