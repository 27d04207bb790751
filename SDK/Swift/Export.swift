import Glibc
import Synchronization

/// Builds the plugin's C descriptor from Swift types, once; every later call returns the same
/// pointer (plugin.h: the descriptor stays valid and unchanged). Use it as the whole body of the
/// entry point:
///
///     @_cdecl("cellhost_plugin_entry")
///     public func entry() -> UnsafeRawPointer {
///         export(BadgeCell.self, plugin: "com.example.badges", name: "Badges", version: "1.0", vendor: "Example")
///     }
///
/// What this builds exists only once the plugin runs. For `cellhost inspect --no-load`, which
/// runs nothing, declare the same strings in the `.cellhost_metadata` ELF section with plugin.h's
/// `CELLHOST_METADATA`, in a small C target the plugin target depends on: Swift's `@section`
/// places only numeric and tuple constants, not strings (SDK/docs/writing-in-swift.md,
/// Plugins/BadgeCellMetadata). `cellhost validate` checks that the two agree.
public func export(_ types: any PluginCell.Type..., plugin id: String, name: String, version: String,
                   vendor: String, description: String? = nil) -> UnsafeRawPointer {
    PluginDescriptorStore.shared.descriptor {
        DescriptorBuilder.build(types: types, id: id, name: name, version: version, vendor: vendor, description: description)
    }
}

/// The one descriptor of this plugin image.
final class PluginDescriptorStore: Sendable {
    static let shared = PluginDescriptorStore()
    private struct Pointer: @unchecked Sendable { let value: UnsafeRawPointer }
    private let built = Mutex<Pointer?>(nil)

    func descriptor(_ build: () -> UnsafeRawPointer) -> UnsafeRawPointer {
        built.withLock { stored in
            if let stored { return stored.value }
            let pointer = build()
            stored = Pointer(value: pointer)
            return pointer
        }
    }
}

/// C descriptors are allocated once and never freed: the host keeps pointers into them for the
/// life of the process.
enum DescriptorBuilder {
    static func string(_ s: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(s)!) }

    static func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
        p.initialize(to: value)
        return p
    }

    static func header<T>(_: T.Type) -> cellhost_header {
        cellhost_header(struct_size: UInt32(MemoryLayout<T>.size), abi_major: UInt16(CELLHOST_ABI_MAJOR),
                        abi_minor: UInt16(CELLHOST_ABI_MINOR))
    }

    static func build(types: [any PluginCell.Type], id: String, name: String, version: String, vendor: String,
                      description: String?) -> UnsafeRawPointer {
        let list = UnsafeMutablePointer<UnsafePointer<cellhost_config_type>?>.allocate(capacity: types.count)
        for (i, type) in types.enumerated() { list[i] = UnsafePointer(configurationType(type)) }
        var d = cellhost_plugin_descriptor()
        d.header = header(cellhost_plugin_descriptor.self)
        d.magic = CELLHOST_DESCRIPTOR_MAGIC
        d.plugin_id = string(id)
        d.name = string(name)
        d.version = string(version)
        d.vendor = string(vendor)
        d.description = description.map(string)
        d.types = UnsafePointer(list)
        d.type_count = UInt32(types.count)
        d.`init` = Thunks.initialize
        return UnsafeRawPointer(allocate(d))
    }

    static func configurationType<Cell: PluginCell>(_: Cell.Type) -> UnsafeMutablePointer<cellhost_config_type> {
        let properties = UnsafeMutablePointer<cellhost_property>.allocate(capacity: max(1, Cell.properties.count))
        for (i, p) in Cell.properties.enumerated() {
            properties.advanced(by: i).initialize(to: cellhost_property(
                header: header(cellhost_property.self), name: string(p.name), encoding: string(p.access.encoding),
                getter: Thunks.getter(p.access.encoding), setter: Thunks.setter(p.access.encoding),
                user_data: UnsafeMutableRawPointer(bitPattern: i)))
        }
        let actions = UnsafeMutablePointer<cellhost_action>.allocate(capacity: max(1, Cell.actions.count))
        for (i, a) in Cell.actions.enumerated() {
            actions.advanced(by: i).initialize(to: cellhost_action(
                header: header(cellhost_action.self), name: string(a.name), encoding: string(a.body.encoding),
                argument_names: a.argumentNames.isEmpty ? nil : string(a.argumentNames.joined(separator: ",")),
                function: Thunks.action(a.body.encoding), user_data: UnsafeMutableRawPointer(bitPattern: i)))
        }
        let view = allocate(cellhost_view_type(
            header: header(cellhost_view_type.self), make: Thunks.makeView, supports: Thunks.supports,
            set_configuration: Thunks.setConfiguration, size_that_fits: Thunks.sizeThatFits, draw: Thunks.draw,
            destroy: Thunks.destroyView))
        var t = cellhost_config_type()
        t.header = header(cellhost_config_type.self)
        t.type_id = string(Cell.typeIdentifier)
        t.display_name = string(Cell.displayName)
        t.properties = UnsafePointer(properties)
        t.property_count = UInt32(Cell.properties.count)
        t.actions = UnsafePointer(actions)
        t.action_count = UInt32(Cell.actions.count)
        t.user_data = UnsafeMutableRawPointer(bitPattern: ExportedTypes.shared.append(Cell.self, layout: PropertyLayout(Cell.self)))
        t.make_default = Thunks.makeDefault
        t.copy = Thunks.copy
        t.destroy = Thunks.destroy
        t.equal = Thunks.equal
        t.updated_for_state = Thunks.updated
        t.is_customized = Thunks.isCustomized
        t.view_type = UnsafePointer(view)
        t.flags = Cell.restyleIsPure ? UInt32(CELLHOST_CONFIG_PURE_RESTYLE) : 0
        return allocate(t)
    }
}

/// The Swift types this image exports, by the index in their descriptor's user_data: a C
/// function pointer cannot capture a generic type, so `make_default` looks it up here.
final class ExportedTypes: Sendable {
    static let shared = ExportedTypes()
    private struct Entry: @unchecked Sendable { let type: any PluginCell.Type, layout: PropertyLayout }
    private let types = Mutex<[Entry]>([])

    func append(_ type: any PluginCell.Type, layout: PropertyLayout) -> Int {
        types.withLock { $0.append(Entry(type: type, layout: layout)); return $0.count - 1 }
    }

    func makeDefault(at index: Int) -> AnyConfigBox? {
        guard let entry = types.withLock({ $0.indices.contains(index) ? $0[index] : nil }) else { return nil }
        return entry.type.makeDefaultBox(layout: entry.layout)
    }
}

extension PluginCell {
    static func makeDefaultBox(layout: PropertyLayout) -> AnyConfigBox { ConfigBox(Self(), layout: layout) }
}
