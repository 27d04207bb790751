/// One description of a configuration's settable properties serves inspection (traces),
/// setting by dotted name (event streams, plugins) and type checking, for content and background
/// configurations alike.

/// A value type that can be read into and written from a `PropertyValue`.
public protocol PropertyValueConvertible: Hashable, Sendable {
    var propertyValue: PropertyValue { get }
    /// How error messages name the expected kind ("color", "double", "one of left, right").
    static var propertyKindName: String { get }
    /// The value for `value`, nil when `value` is of the wrong kind. Throws when the kind is
    /// right but the content is not (an unknown colour name).
    static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self?
    /// Whether `converting` takes every string of at most `byteCount` UTF-8 bytes (returns a
    /// value, throws nothing): a caller checking many strings for one property then checks
    /// their lengths only. False (the default) is always a safe answer.
    static func acceptsEveryString(upToBytes byteCount: Int) -> Bool
}

extension PropertyValueConvertible {
    public static func acceptsEveryString(upToBytes byteCount: Int) -> Bool { false }
}

/// A property at a dotted path, read and written through its `Customizable` storage. The full
/// name is built once, so reading every property of a configuration allocates no strings.
public struct PropertyDescriptor<Root>: Sendable {
    public let name: String
    public let kindName: String
    /// The value and its customisation flag of the `Root` at the pointer, by a closure made once
    /// per table. It is generic code (not specialised for the value's type), so it reads through
    /// the pointer and offsets found when the table was made: taking `Root` by value copied the
    /// whole configuration for every property, and naming `Customizable<V>` looked up its
    /// metadata on every read.
    let readStored: @Sendable (UnsafeRawPointer) -> (PropertyValue, Bool)
    /// Where the customisation flag is stored in `Root`; nil when the path is not stored properties.
    let flagOffset: Int?
    /// Writes are rare (event sets, plugin setters): they go through the typed lens.
    let lens: any PropertyLens<Root>

    /// `validate` returns a reason when a value of the right kind is out of range.
    public init<V: PropertyValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Root, Customizable<V>> & Sendable,
        validate: (@Sendable (V) -> String?)? = nil
    ) {
        self.name = name
        kindName = V.propertyKindName
        let lens = CustomizableLens(keyPath: keyPath, validate: validate)
        readStored = lens.reader()
        flagOffset = lens.flagOffset
        self.lens = lens
    }

    init(name: String, kindName: String, readStored: @escaping @Sendable (UnsafeRawPointer) -> (PropertyValue, Bool),
         lens: any PropertyLens<Root>) {
        self.name = name
        self.kindName = kindName
        self.readStored = readStored
        flagOffset = lens.flagOffset
        self.lens = lens
    }

    func read(_ root: Root) -> InspectableProperty {
        let (value, isCustomized) = withUnsafePointer(to: root) { readStored(UnsafeRawPointer($0)) }
        return InspectableProperty(name: name, value: value, isCustomized: isCustomized)
    }

    func write(_ root: inout Root, _ value: PropertyValue) throws(ConfigurationPropertyError) {
        try lens.write(&root, value, name: name)
    }

    func check(_ value: PropertyValue) throws(ConfigurationPropertyError) {
        try lens.check(value, name: name)
    }

    func acceptsEveryString(upToBytes byteCount: Int) -> Bool { lens.acceptsEveryString(upToBytes: byteCount) }
}

/// Typed writes to one customizable property, behind an existential so tables can mix types and
/// nest: a nested table composes key paths for its writes.
protocol PropertyLens<Root>: Sendable {
    associatedtype Root
    func write(_ root: inout Root, _ value: PropertyValue, name: String) throws(ConfigurationPropertyError)
    /// Throws what `write` would throw for `value`, without writing.
    func check(_ value: PropertyValue, name: String) throws(ConfigurationPropertyError)
    /// Whether `check` passes every string of at most `byteCount` UTF-8 bytes.
    func acceptsEveryString(upToBytes byteCount: Int) -> Bool
    func rebased<Outer>(onto path: WritableKeyPath<Outer, Root>) -> any PropertyLens<Outer>
    /// The value and its customisation flag of the `Root` at a pointer, read without applying a
    /// key path per read.
    func reader() -> @Sendable (UnsafeRawPointer) -> (PropertyValue, Bool)
    /// Where the property is stored in `Root`; nil when the path is not stored properties.
    var storedOffset: Int? { get }
    /// Where its customisation flag is stored in `Root`; nil when the path is not stored properties.
    var flagOffset: Int? { get }
}

/// Key paths are immutable values; composed ones lose the static `Sendable` of literals only.
struct CustomizableLens<Root, V: PropertyValueConvertible>: PropertyLens, @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Customizable<V>>
    let validate: (@Sendable (V) -> String?)?

    func write(_ root: inout Root, _ value: PropertyValue, name: String) throws(ConfigurationPropertyError) {
        root[keyPath: keyPath].wrappedValue = try converted(value, name: name)
    }

    func check(_ value: PropertyValue, name: String) throws(ConfigurationPropertyError) {
        _ = try converted(value, name: name)
    }

    func acceptsEveryString(upToBytes byteCount: Int) -> Bool {
        validate == nil && V.acceptsEveryString(upToBytes: byteCount)
    }

    private func converted(_ value: PropertyValue, name: String) throws(ConfigurationPropertyError) -> V {
        guard let converted = try V.converting(value, property: name) else {
            throw .typeMismatch(property: name, expected: V.propertyKindName, got: value.kindName)
        }
        if let reason = validate?(converted) { throw .invalidValue(property: name, reason: reason) }
        return converted
    }

    func rebased<Outer>(onto path: WritableKeyPath<Outer, Root>) -> any PropertyLens<Outer> {
        CustomizableLens<Outer, V>(keyPath: path.appending(path: keyPath), validate: validate)
    }

    /// Applying a key path at run time looks up generic metadata for every component on every
    /// read. A path of stored properties (every table's: the wrappers' storage `\._name`, nested
    /// ones included) has a fixed offset in `Root`, which `MemoryLayout.offset(of:)` documents as
    /// safe to read through: the reader loads the stored property from there. Other paths (a
    /// wrapper's projected `\.$name` is computed) fall back to the key path.
    var storedOffset: Int? { MemoryLayout<Root>.offset(of: keyPath) }

    var flagOffset: Int? { storedOffset.map { $0 + MemoryLayout<Customizable<V>>.offset(of: \.isCustomized)! } }

    func reader() -> @Sendable (UnsafeRawPointer) -> (PropertyValue, Bool) {
        guard let offset = storedOffset else {
            return { root in
                let stored = root.assumingMemoryBound(to: Root.self).pointee[keyPath: self.keyPath]
                return (stored.value.propertyValue, stored.isCustomized)
            }
        }
        // The wrapper's two fields, found here once: inside the closure `V` is known from its
        // context, `Customizable<V>` would be looked up.
        let valueOffset = offset + MemoryLayout<Customizable<V>>.offset(of: \.value)!
        let flagOffset = offset + MemoryLayout<Customizable<V>>.offset(of: \.isCustomized)!
        return { root in
            ((root + valueOffset).assumingMemoryBound(to: V.self).pointee.propertyValue,
             root.load(fromByteOffset: flagOffset, as: Bool.self))
        }
    }
}

/// Every property of a type, in display order, with lookup by name.
public struct PropertyTable<Root>: Sendable {
    public let descriptors: [PropertyDescriptor<Root>]
    private let indexByName: [String: Int]
    /// The descriptors' names and readers on their own: reading every property takes one name
    /// and one closure per property, where a descriptor taken out of its array is a copy of all
    /// its fields (strings, closure and lens, each retained and released).
    private let names: [String]
    private let readers: [@Sendable (UnsafeRawPointer) -> (PropertyValue, Bool)]
    private let flagOffsets: [Int?]

    public init(_ descriptors: [PropertyDescriptor<Root>]) {
        self.descriptors = descriptors
        indexByName = Dictionary(uniqueKeysWithValues: descriptors.enumerated().map { ($1.name, $0) })
        names = descriptors.map(\.name)
        readers = descriptors.map(\.readStored)
        flagOffsets = descriptors.map(\.flagOffset)
    }

    /// Every property of the `Root` at `root`, in table order.
    func readAll(at root: UnsafeRawPointer) -> [InspectableProperty] {
        var list: [InspectableProperty] = []
        list.reserveCapacity(readers.count)
        for i in readers.indices {
            let (value, isCustomized) = readers[i](root)
            list.append(InspectableProperty(name: names[i], value: value, isCustomized: isCustomized))
        }
        return list
    }

    /// The customised properties of the `Root` at `root`, in table order. A flag is a byte at a
    /// known offset, so a property left alone costs no read of its value.
    func readCustomized(at root: UnsafeRawPointer) -> [InspectableProperty] {
        var list: [InspectableProperty] = []
        for i in readers.indices {
            if let flag = flagOffsets[i], !root.load(fromByteOffset: flag, as: Bool.self) { continue }
            let (value, isCustomized) = readers[i](root)
            if isCustomized { list.append(InspectableProperty(name: names[i], value: value, isCustomized: true)) }
        }
        return list
    }

    public subscript(name: String) -> PropertyDescriptor<Root>? { indexByName[name].map { descriptors[$0] } }

    /// The same table for a type that holds `Root` at `keyPath`, names prefixed ("textProperties.").
    public func nested<Outer>(under prefix: String, at keyPath: WritableKeyPath<Outer, Root> & Sendable)
        -> [PropertyDescriptor<Outer>]
    {
        descriptors.map { inner in
            // The composed path is stored properties all the way down: its reader loads the
            // property at its offset in the outer value, as the inner table's reader does.
            let lens = inner.lens.rebased(onto: keyPath)
            return PropertyDescriptor<Outer>(name: prefix + "." + inner.name, kindName: inner.kindName,
                                             readStored: lens.reader(), lens: lens)
        }
    }
}

/// A type whose properties are described by a `PropertyTable`: it gets `inspectableProperties`
/// and `setting(_:to:)` from the table (and so satisfies those `ContentConfiguration` requirements).
public protocol PropertyInspectable {
    static var propertyTable: PropertyTable<Self> { get }
    var typeIdentifier: String { get }
}

extension PropertyInspectable {
    public var inspectableProperties: [InspectableProperty] { propertiesFromTable() }

    /// The customised properties only, in table order.
    public var customizedProperties: [InspectableProperty] { customizedPropertiesFromTable() }

    /// The current value of one property, nil for an unknown name.
    public func inspectableProperty(named name: String) -> InspectableProperty? {
        Self.propertyTable[name]?.read(self)
    }

    public func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        try settingThroughTable(name, to: value)
    }

    // The readers and the setter themselves, named apart so that types conforming to both this
    // protocol and another with defaults for the same requirements can restate them in one line.

    func propertiesFromTable() -> [InspectableProperty] {
        // One pointer to this value serves every property's read.
        withUnsafePointer(to: self) { Self.propertyTable.readAll(at: UnsafeRawPointer($0)) }
    }

    func customizedPropertiesFromTable() -> [InspectableProperty] {
        withUnsafePointer(to: self) { Self.propertyTable.readCustomized(at: UnsafeRawPointer($0)) }
    }

    /// Throws what `setting(name, to: value)` would throw, without making the copy: a setter's
    /// verdict depends on the name and the value only, so checking many values (a long list's
    /// items, before its first event) need not copy the configuration for each.
    public func checkSetting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) {
        guard let descriptor = Self.propertyTable[name] else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        try descriptor.check(value)
    }

    /// Whether `checkSetting(name, to: .string(s))` passes for every `s` of at most `byteCount`
    /// UTF-8 bytes (any text for a text property): a caller checking many strings for one
    /// property asks once and then compares lengths. False when unsure or for an unknown name.
    public func acceptsEveryString(_ name: String, upToBytes byteCount: Int) -> Bool {
        Self.propertyTable[name]?.acceptsEveryString(upToBytes: byteCount) ?? false
    }

    func settingThroughTable(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        guard let descriptor = Self.propertyTable[name] else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        var copy = self
        try descriptor.write(&copy, value)
        return copy
    }
}

/// Validation shared by lengths that cannot be negative.
let nonNegative: @Sendable (Double) -> String? = { $0 >= 0 ? nil : "must not be negative" }
