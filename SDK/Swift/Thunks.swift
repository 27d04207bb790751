/// The C entry points of every Swift plugin type: plain `@convention(c)` functions that find the
/// Swift value behind a handle and the property or action behind its descriptor's user_data.

typealias PropertyDescriptor = UnsafePointer<cellhost_property>?
typealias ActionDescriptor = UnsafePointer<cellhost_action>?

private func index(_ property: PropertyDescriptor) -> Int { Int(bitPattern: property!.pointee.user_data) }
private func index(_ action: ActionDescriptor) -> Int { Int(bitPattern: action!.pointee.user_data) }

/// A getter for values of type `T` (C values only), through a slot on the stack.
private func read<T>(_ config: OpaquePointer?, _ property: PropertyDescriptor, as _: T.Type) -> T {
    withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment) { slot in
        AnyConfigBox.with(config) { $0.read(index(property), into: slot.baseAddress!) }
        return slot.baseAddress!.load(as: T.self)
    }
}

/// A setter for values of type `T`.
private func write<T>(_ config: OpaquePointer?, _ property: PropertyDescriptor, _ value: T) {
    withUnsafePointer(to: value) { value in
        AnyConfigBox.with(config) { $0.write(index(property), from: UnsafeRawPointer(value)) }
    }
}

/// An action call with its arguments.
private func perform(_ config: OpaquePointer?, _ action: ActionDescriptor, _ arguments: ActionArguments) -> Bool {
    AnyConfigBox.with(config) { $0.perform(index(action), arguments) }
}

enum Thunks {
    static func getter(_ encoding: String) -> cellhost_fn {
        switch encoding {
        case "B": unsafeBitCast(getBool, to: cellhost_fn.self)
        case "q": unsafeBitCast(getInt64, to: cellhost_fn.self)
        case "d": unsafeBitCast(getDouble, to: cellhost_fn.self)
        case "*": unsafeBitCast(getString, to: cellhost_fn.self)
        case "{Size=dd}": unsafeBitCast(getSize, to: cellhost_fn.self)
        case "{Insets=dddd}": unsafeBitCast(getInsets, to: cellhost_fn.self)
        case "@T": unsafeBitCast(getTransformer, to: cellhost_fn.self)
        default: unsafeBitCast(getColor, to: cellhost_fn.self)
        }
    }

    static func setter(_ encoding: String) -> cellhost_fn {
        switch encoding {
        case "B": unsafeBitCast(setBool, to: cellhost_fn.self)
        case "q": unsafeBitCast(setInt64, to: cellhost_fn.self)
        case "d": unsafeBitCast(setDouble, to: cellhost_fn.self)
        case "*": unsafeBitCast(setString, to: cellhost_fn.self)
        case "{Size=dd}": unsafeBitCast(setSize, to: cellhost_fn.self)
        case "{Insets=dddd}": unsafeBitCast(setInsets, to: cellhost_fn.self)
        case "@T": unsafeBitCast(setTransformer, to: cellhost_fn.self)
        default: unsafeBitCast(setColor, to: cellhost_fn.self)
        }
    }

    static func action(_ encoding: String) -> cellhost_fn {
        switch encoding {
        case "q": unsafeBitCast(actInt64, to: cellhost_fn.self)
        case "d": unsafeBitCast(actDouble, to: cellhost_fn.self)
        case "B": unsafeBitCast(actBool, to: cellhost_fn.self)
        case "*": unsafeBitCast(actString, to: cellhost_fn.self)
        case "dB": unsafeBitCast(actDoubleBool, to: cellhost_fn.self)
        default: unsafeBitCast(actNone, to: cellhost_fn.self)
        }
    }

    static let getBool: @convention(c) (OpaquePointer?, PropertyDescriptor) -> Bool = { read($0, $1, as: Bool.self) }
    static let getInt64: @convention(c) (OpaquePointer?, PropertyDescriptor) -> Int64 = { read($0, $1, as: Int64.self) }
    static let getDouble: @convention(c) (OpaquePointer?, PropertyDescriptor) -> Double = { read($0, $1, as: Double.self) }
    static let getString: @convention(c) (OpaquePointer?, PropertyDescriptor) -> UnsafePointer<CChar>? = {
        read($0, $1, as: UnsafePointer<CChar>?.self)
    }
    static let getColor: @convention(c) (OpaquePointer?, PropertyDescriptor) -> cellhost_color = { read($0, $1, as: cellhost_color.self) }
    static let getSize: @convention(c) (OpaquePointer?, PropertyDescriptor) -> cellhost_size = { read($0, $1, as: cellhost_size.self) }
    static let getInsets: @convention(c) (OpaquePointer?, PropertyDescriptor) -> cellhost_insets = { read($0, $1, as: cellhost_insets.self) }
    static let getTransformer: @convention(c) (OpaquePointer?, PropertyDescriptor) -> cellhost_color_transformer? = {
        read($0, $1, as: cellhost_color_transformer?.self)
    }

    static let setBool: @convention(c) (OpaquePointer?, PropertyDescriptor, Bool) -> Void = { write($0, $1, $2) }
    static let setInt64: @convention(c) (OpaquePointer?, PropertyDescriptor, Int64) -> Void = { write($0, $1, $2) }
    static let setDouble: @convention(c) (OpaquePointer?, PropertyDescriptor, Double) -> Void = { write($0, $1, $2) }
    static let setString: @convention(c) (OpaquePointer?, PropertyDescriptor, UnsafePointer<CChar>?) -> Void = { write($0, $1, $2) }
    static let setColor: @convention(c) (OpaquePointer?, PropertyDescriptor, cellhost_color) -> Void = { write($0, $1, $2) }
    static let setSize: @convention(c) (OpaquePointer?, PropertyDescriptor, cellhost_size) -> Void = { write($0, $1, $2) }
    static let setInsets: @convention(c) (OpaquePointer?, PropertyDescriptor, cellhost_insets) -> Void = { write($0, $1, $2) }
    static let setTransformer: @convention(c) (OpaquePointer?, PropertyDescriptor, cellhost_color_transformer?) -> Void = {
        write($0, $1, $2)
    }

    static let actNone: @convention(c) (OpaquePointer?, ActionDescriptor) -> Bool = {
        perform($0, $1, .none)
    }
    static let actInt64: @convention(c) (OpaquePointer?, ActionDescriptor, Int64) -> Bool = {
        perform($0, $1, .int64($2))
    }
    static let actDouble: @convention(c) (OpaquePointer?, ActionDescriptor, Double) -> Bool = {
        perform($0, $1, .double($2))
    }
    static let actBool: @convention(c) (OpaquePointer?, ActionDescriptor, Bool) -> Bool = {
        perform($0, $1, .bool($2))
    }
    static let actString: @convention(c) (OpaquePointer?, ActionDescriptor, UnsafePointer<CChar>?) -> Bool = {
        perform($0, $1, .string($2.map { String(cString: $0) } ?? ""))
    }
    static let actDoubleBool: @convention(c) (OpaquePointer?, ActionDescriptor, Double, Bool) -> Bool = {
        perform($0, $1, .doubleBool($2, $3))
    }

    // Lifecycle and views.
    static let makeDefault: @convention(c) (UnsafePointer<cellhost_config_type>?) -> OpaquePointer? = { type in
        guard let type else { return nil }
        return ExportedTypes.shared.makeDefault(at: Int(bitPattern: type.pointee.user_data))?.handle
    }
    static let copy: @convention(c) (OpaquePointer?) -> OpaquePointer? = { AnyConfigBox.with($0) { $0.copy().handle } }
    static let destroy: @convention(c) (OpaquePointer?) -> Void = { AnyConfigBox.release($0) }
    static let equal: @convention(c) (OpaquePointer?, OpaquePointer?) -> Bool = { a, b in
        AnyConfigBox.with(a) { a in AnyConfigBox.with(b) { a.isEqual(to: $0) } }
    }
    static let updated: @convention(c) (OpaquePointer?, UnsafePointer<cellhost_state>?) -> OpaquePointer? = { config, state in
        AnyConfigBox.with(config) { config in
            guard let state else { return config.copy().handle }
            return config.updated(for: PluginState(state)).handle
        }
    }
    static let isCustomized: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Bool = { config, name in
        guard let name else { return false }
        return AnyConfigBox.with(config) { $0.customized.contains(String(cString: name)) }
    }
    static let makeView: @convention(c) (OpaquePointer?) -> OpaquePointer? = { AnyConfigBox.with($0) { $0.makeView().handle } }
    static let supports: @convention(c) (OpaquePointer?, OpaquePointer?) -> Bool = { view, config in
        AnyViewBox.with(view) { view in AnyConfigBox.with(config) { view.supports($0) } }
    }
    static let setConfiguration: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { view, config in
        AnyViewBox.with(view) { view in AnyConfigBox.with(config) { view.set($0) } }
    }
    static let sizeThatFits: @convention(c) (OpaquePointer?, cellhost_size, UnsafePointer<cellhost_context>?) -> cellhost_size = {
        view, target, context in
        AnyViewBox.with(view) { $0.sizeThatFits(target, context: DrawingContext(context!)) }
    }
    static let draw: @convention(c) (OpaquePointer?, cellhost_rect, UnsafePointer<cellhost_context>?, OpaquePointer?) -> Void = {
        view, bounds, context, canvas in
        AnyViewBox.with(view) { $0.draw(in: bounds, context: DrawingContext(context!), canvas: Canvas(canvas)) }
    }
    static let destroyView: @convention(c) (OpaquePointer?) -> Void = { AnyViewBox.release($0) }
    static let initialize: @convention(c) (UnsafePointer<cellhost_host>?) -> Bool = { host in
        Host.table = host
        return host != nil
    }
}
