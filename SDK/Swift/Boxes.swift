import Glibc

/// What a `cellhost_config *` from a Swift plugin points to: a retained box holding the Swift
/// value and the names of the properties the host set. The C entry points (Thunks.swift) are
/// shared by every type and dispatch through these classes.
///
/// Exclusivity: the host calls a configuration from one thread at a time and never re-enters it
/// during a call (plugin.h), and no SDK code holds an access to a box's stored property across a
/// call out of the plugin. So the boxes' mutable stored properties, which every getter, setter
/// and restyle reads, are `@exclusivity(unchecked)`: without it each access is a run-time check
/// (`swift_beginAccess`), and turning the checks off for the whole module takes an unsafe flag,
/// which SwiftPM refuses in a package depended on by version.
class AnyConfigBox {
    /// The `PluginCell` type of the value inside: a box with this token is a `ConfigBox` of that
    /// type, so thunks find the concrete box without a dynamic cast (which looks up the generic
    /// class's metadata on every call).
    let cellType: ObjectIdentifier
    /// Where the value's properties are, shared by every box of the type.
    let layout: PropertyLayout
    @exclusivity(unchecked) var customized: Set<String>
    /// Strings handed out by `*` getters, kept until the next read of that property or the end
    /// of the configuration (plugin.h: valid until the next call on the configuration).
    @exclusivity(unchecked) var handedOutStrings: [Int: UnsafeMutablePointer<CChar>] = [:]

    init(cellType: ObjectIdentifier, layout: PropertyLayout, customized: Set<String>) {
        self.cellType = cellType
        self.layout = layout
        self.customized = customized
    }

    /// This box as a box of `Cell` values, nil when it holds another type.
    @inline(__always)
    final func holding<Cell: PluginCell>(_: Cell.Type) -> ConfigBox<Cell>? {
        cellType == ObjectIdentifier(Cell.self) ? unsafeDowncast(self, to: ConfigBox<Cell>.self) : nil
    }

    /// Most boxes never hand out a string; iterating even an empty dictionary's values costs more
    /// than the check.
    deinit { if !handedOutStrings.isEmpty { handedOutStrings.values.forEach { free($0) } } }

    func copy() -> AnyConfigBox { fatalError("abstract") }
    func isEqual(to other: AnyConfigBox) -> Bool { fatalError("abstract") }
    func updated(for state: PluginState) -> AnyConfigBox { fatalError("abstract") }
    func read(_ index: Int, into slot: UnsafeMutableRawPointer) { fatalError("abstract") }
    func write(_ index: Int, from slot: UnsafeRawPointer) { fatalError("abstract") }

    /// Reads a stored property at `source` (inside this box's value) into a C getter's `slot`.
    final func readStored(_ property: PropertyLayout.Slot, index: Int, at source: UnsafeRawPointer,
                          into slot: UnsafeMutableRawPointer) {
        switch property.kind {
        case .bytes(let count): slot.copyMemory(from: source, byteCount: count)
        case .string: handOut(source.assumingMemoryBound(to: String.self).pointee, index: index, into: slot)
        }
    }

    /// Writes a C setter's value into the stored property at `target` (inside this box's value).
    final func writeStored(_ property: PropertyLayout.Slot, at target: UnsafeMutableRawPointer, from slot: UnsafeRawPointer) {
        switch property.kind {
        case .bytes(let count): target.copyMemory(from: slot, byteCount: count)
        case .string:
            target.assumingMemoryBound(to: String.self).pointee =
                slot.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        }
        customized.insert(property.name)
    }

    /// Copies a stored property's value between two values of the same type.
    static func copyStored(_ property: PropertyLayout.Slot, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        switch property.kind {
        case .bytes(let count): target.copyMemory(from: source, byteCount: count)
        case .string: target.assumingMemoryBound(to: String.self).pointee = source.assumingMemoryBound(to: String.self).pointee
        }
    }

    /// A copy of `text` as a C string, kept until the next read of property `index` or the end
    /// of the configuration.
    final func handOut(_ text: String, index: Int, into slot: UnsafeMutableRawPointer) {
        if let old = handedOutStrings[index] { free(old) }
        let copy = strdup(text)!
        handedOutStrings[index] = copy
        slot.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>.self)
    }
    func perform(_ index: Int, _ arguments: ActionArguments) -> Bool { fatalError("abstract") }
    func makeView() -> AnyViewBox { fatalError("abstract") }

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }
    /// `body` with the box behind `handle`, which the host keeps alive during the call: borrowed,
    /// not retained and released around the call.
    @inline(__always)
    static func with<R>(_ handle: OpaquePointer?, _ body: (AnyConfigBox) -> R) -> R {
        Unmanaged<AnyConfigBox>.fromOpaque(UnsafeRawPointer(handle!))._withUnsafeGuaranteedRef(body)
    }
    static func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        Unmanaged<AnyConfigBox>.fromOpaque(UnsafeRawPointer(handle)).release()
    }
}

/// Arguments of an action call, as the C thunk received them.
enum ActionArguments {
    case none
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case doubleBool(Double, Bool)
}

final class ConfigBox<Cell: PluginCell>: AnyConfigBox {
    /// Unchecked: see `AnyConfigBox`.
    @exclusivity(unchecked) var value: Cell

    init(_ value: consuming Cell, layout: PropertyLayout, customized: Set<String> = []) {
        self.value = value
        super.init(cellType: ObjectIdentifier(Cell.self), layout: layout, customized: customized)
    }

    /// A new box of this box's own class (`type(of: self)` reads it from the instance; naming
    /// `ConfigBox<Cell>` looks the generic class up).
    private func sibling(_ value: consuming Cell) -> AnyConfigBox {
        type(of: self).init(value, layout: layout, customized: customized)
    }

    override func copy() -> AnyConfigBox { sibling(value) }

    override func isEqual(to other: AnyConfigBox) -> Bool {
        guard let other = other.holding(Cell.self) else { return false }
        if other === self { return value == value }
        return Self.equal(&value, &other.value) && customized == other.customized
    }

    // Values are handed to the cell's own functions as inout arguments: the code here is generic,
    // not specialised for the plugin's type, and passing a stored `value` as a plain argument
    // copies it (and destroys the copy) on every call; an inout argument is passed where it is.

    private static func equal(_ a: inout Cell, _ b: inout Cell) -> Bool { a == b }

    private static func restyled(_ value: inout Cell, for state: PluginState) -> Cell { value.updated(for: state) }

    /// Restyles, then puts every locked property back.
    override func updated(for state: PluginState) -> AnyConfigBox {
        var new = Self.restyled(&value, for: state)
        if !customized.isEmpty {
            for (i, property) in layout.slots.enumerated() where customized.contains(property.name) {
                guard let offset = property.offset else {
                    Cell.properties[i].access.copy(from: value, into: &new)
                    continue
                }
                withUnsafePointer(to: &value) { source in
                    withUnsafeMutablePointer(to: &new) { target in
                        Self.copyStored(property, from: UnsafeRawPointer(source) + offset, to: UnsafeMutableRawPointer(target) + offset)
                    }
                }
            }
        }
        return sibling(consume new)
    }

    override func read(_ index: Int, into slot: UnsafeMutableRawPointer) {
        let property = layout.slots[index]
        if let offset = property.offset {
            withUnsafePointer(to: &value) { readStored(property, index: index, at: UnsafeRawPointer($0) + offset, into: slot) }
            return
        }
        switch Cell.properties[index].access {
        case .bool(let k): slot.storeBytes(of: value[keyPath: k], as: Bool.self)
        case .int64(let k): slot.storeBytes(of: value[keyPath: k], as: Int64.self)
        case .double(let k): slot.storeBytes(of: value[keyPath: k], as: Double.self)
        case .string(let k): handOut(value[keyPath: k], index: index, into: slot)
        case .color(let k): slot.storeBytes(of: value[keyPath: k], as: cellhost_color.self)
        case .size(let k): slot.storeBytes(of: value[keyPath: k], as: cellhost_size.self)
        case .insets(let k): slot.storeBytes(of: value[keyPath: k], as: cellhost_insets.self)
        case .transformer(let k): slot.storeBytes(of: value[keyPath: k], as: cellhost_color_transformer?.self)
        }
    }

    override func write(_ index: Int, from slot: UnsafeRawPointer) {
        let stored = layout.slots[index]
        if let offset = stored.offset {
            withUnsafeMutablePointer(to: &value) { writeStored(stored, at: UnsafeMutableRawPointer($0) + offset, from: slot) }
            return
        }
        let property = Cell.properties[index]
        switch property.access {
        case .bool(let k): value[keyPath: k] = slot.load(as: Bool.self)
        case .int64(let k): value[keyPath: k] = slot.load(as: Int64.self)
        case .double(let k): value[keyPath: k] = slot.load(as: Double.self)
        case .string(let k): value[keyPath: k] = slot.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        case .color(let k): value[keyPath: k] = slot.load(as: cellhost_color.self)
        case .size(let k): value[keyPath: k] = slot.load(as: cellhost_size.self)
        case .insets(let k): value[keyPath: k] = slot.load(as: cellhost_insets.self)
        case .transformer(let k): value[keyPath: k] = slot.load(as: cellhost_color_transformer?.self)
        }
        customized.insert(property.name)
    }

    override func perform(_ index: Int, _ arguments: ActionArguments) -> Bool {
        switch (Cell.actions[index].body, arguments) {
        case (.none(let body), .none): body(&value)
        case (.int64(let body), .int64(let a)): body(&value, a)
        case (.double(let body), .double(let a)): body(&value, a)
        case (.bool(let body), .bool(let a)): body(&value, a)
        case (.string(let body), .string(let a)): body(&value, a)
        case (.doubleBool(let body), .doubleBool(let a, let b)): body(&value, a, b)
        default: false
        }
    }

    override func makeView() -> AnyViewBox { ViewBox<Cell.View>(Cell.View(configuration: value)) }
}

/// What a `cellhost_view *` from a Swift plugin points to.
class AnyViewBox {
    func supports(_ config: AnyConfigBox) -> Bool { fatalError("abstract") }
    func set(_ config: AnyConfigBox) { fatalError("abstract") }
    func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size { fatalError("abstract") }
    func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) { fatalError("abstract") }

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }
    /// `body` with the view box behind `handle`, borrowed for the call (see `AnyConfigBox.with`).
    @inline(__always)
    static func with<R>(_ handle: OpaquePointer?, _ body: (AnyViewBox) -> R) -> R {
        Unmanaged<AnyViewBox>.fromOpaque(UnsafeRawPointer(handle!))._withUnsafeGuaranteedRef(body)
    }
    static func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        Unmanaged<AnyViewBox>.fromOpaque(UnsafeRawPointer(handle)).release()
    }
}

final class ViewBox<View: PluginCellView>: AnyViewBox {
    let view: View
    init(_ view: View) { self.view = view }

    override func supports(_ config: AnyConfigBox) -> Bool {
        guard let config = config.holding(View.Configuration.self) else { return false }
        return Self.supports(&config.value, in: view)
    }
    /// The configuration passed where its box stores it (see `ConfigBox.equal`).
    private static func supports(_ value: inout View.Configuration, in view: View) -> Bool { view.supports(value) }

    override func set(_ config: AnyConfigBox) {
        guard let config = config.holding(View.Configuration.self) else { return }
        view.configuration = config.value
    }
    override func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size {
        view.sizeThatFits(target, context: context)
    }
    override func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {
        view.draw(in: bounds, context: context, canvas: canvas)
    }
}
