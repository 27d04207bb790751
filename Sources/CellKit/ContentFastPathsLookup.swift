/// What a content configuration's type adopts of `ContentConfigurationFastPaths`, looked up once
/// for a value and then used for that value and every restyle of it: a restyle returns `Self`,
/// so only setting another value can change the type. A cell keeps its value as
/// `any ContentConfiguration`; the lookup acts on that value in place, as its own type, so no
/// pass casts the value (a cast looks the conformance up again and copies the value). Valid
/// only for values of the type it was made for.
struct ContentFastPathsLookup {
    /// The refinement's requirements for the looked-up type; nil when it adopts only the core protocol.
    fileprivate let witness: (any FastPathsWitness.Type)?
    /// The type the witness was made for; nil without a witness.
    fileprivate let configurationType: ObjectIdentifier?
    /// `restyleIsPure` of the value looked up: the promise covers every restyle of it.
    let restyleIsPure: Bool

    /// A type that adopts nothing (what a view without content holds).
    static var none: ContentFastPathsLookup { ContentFastPathsLookup(witness: nil, configurationType: nil, restyleIsPure: false) }

    private init(witness: (any FastPathsWitness.Type)?, configurationType: ObjectIdentifier?, restyleIsPure: Bool) {
        self.witness = witness
        self.configurationType = configurationType
        self.restyleIsPure = restyleIsPure
    }

    /// Looks up the type of `value` (its metatype is cast, so the value is not copied).
    init(of value: any ContentConfiguration) {
        func witness<C: ContentConfigurationFastPaths>(for type: C.Type) -> any FastPathsWitness.Type { Witness<C>.self }
        guard let adopting = type(of: value) as? any ContentConfigurationFastPaths.Type else {
            self = .none
            return
        }
        let found = witness(for: adopting), type = ObjectIdentifier(adopting)
        self.init(witness: found, configurationType: type,
                  restyleIsPure: value.inPlace(checking: type) { found.restyleIsPure(at: $0) })
    }

    /// Whether the type has a cell-state restyle of its own (`updated(forCellState:)`).
    var restylesCellStates: Bool { witness != nil }
}

/// The refinement's requirements, asked of a value through a lookup. Each is called on the
/// existential where the cell keeps it, so the value is opened in place, not copied.
extension ContentConfiguration {
    /// `updated(forCellState:)`; only when `lookup.restylesCellStates`.
    func restyled(forCellState state: CellConfigurationState, by lookup: ContentFastPathsLookup) -> any ContentConfiguration {
        let witness = lookup.witness!
        return inPlace(checking: lookup.configurationType) { witness.restyled(at: $0, forCellState: state) }
    }

    /// `restylesAlike(a, b)`; false for a type that adopts nothing.
    func restylesAlike(_ a: CellConfigurationState, _ b: CellConfigurationState, by lookup: ContentFastPathsLookup) -> Bool {
        guard let witness = lookup.witness else { return false }
        return inPlace(checking: lookup.configurationType) { witness.restylesAlike(at: $0, a, b) }
    }

    /// Whether this and `other` list the same properties: one value, or equal values of a type
    /// that lists by value. False for a type that adopts nothing.
    func listsAlike(_ other: any ContentConfiguration, by lookup: ContentFastPathsLookup) -> Bool {
        guard let witness = lookup.witness else { return false }
        return inPlace(checking: lookup.configurationType) { witness.listsAlike(at: $0, other) }
    }

    /// `customizedProperties`, or the customised ones of `inspectableProperties` for a type that
    /// adopts nothing.
    func customizedProperties(by lookup: ContentFastPathsLookup) -> [InspectableProperty] {
        guard let witness = lookup.witness else { return inspectableProperties.filter(\.isCustomized) }
        return inPlace(checking: lookup.configurationType) { witness.customizedProperties(at: $0) }
    }

    /// The same, through the lookup `lookups` keeps for this value's type.
    func listsAlike(_ other: any ContentConfiguration, by lookups: LastFastPathsLookup) -> Bool {
        listsAlike(other, by: lookups.lookup(for: self))
    }

    func customizedProperties(by lookups: LastFastPathsLookup) -> [InspectableProperty] {
        customizedProperties(by: lookups.lookup(for: self))
    }

    /// `body` given the address of this value, whose type must be `type` (the lookup's).
    @inline(__always)
    fileprivate func inPlace<R>(checking type: ObjectIdentifier?, _ body: (UnsafeRawPointer) -> R) -> R {
        precondition(type == ObjectIdentifier(Self.self), "a fast-paths lookup used for a value of another type")
        return withUnsafePointer(to: self) { body(UnsafeRawPointer($0)) }
    }
}

/// The refinement's requirements for one type, asked of a value of that type at an address.
private protocol FastPathsWitness {
    static func restyled(at value: UnsafeRawPointer, forCellState state: CellConfigurationState) -> any ContentConfiguration
    static func restylesAlike(at value: UnsafeRawPointer, _ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool
    static func restyleIsPure(at value: UnsafeRawPointer) -> Bool
    static func listsAlike(at value: UnsafeRawPointer, _ other: any ContentConfiguration) -> Bool
    static func customizedProperties(at value: UnsafeRawPointer) -> [InspectableProperty]
}

private enum Witness<C: ContentConfigurationFastPaths>: FastPathsWitness {
    static func restyled(at value: UnsafeRawPointer, forCellState state: CellConfigurationState) -> any ContentConfiguration {
        read(value) { $0.updated(forCellState: state) }
    }

    static func restylesAlike(at value: UnsafeRawPointer, _ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool {
        read(value) { $0.restylesAlike(a, b) }
    }

    static func restyleIsPure(at value: UnsafeRawPointer) -> Bool { read(value) { $0.restyleIsPure } }

    static func listsAlike(at value: UnsafeRawPointer, _ other: any ContentConfiguration) -> Bool {
        read(value) { $0.isIdentical(to: other) || ($0.listsPropertiesByValue && $0.isEqual(to: other)) }
    }

    static func customizedProperties(at value: UnsafeRawPointer) -> [InspectableProperty] {
        read(value) { $0.customizedProperties }
    }

    /// `body` given the `C` at `value`. Generic code handed the value itself, or a pointer's
    /// `pointee`, copies it first; an `inout` argument is read where it is. Nothing writes
    /// through it: `body` only asks. Always inlined, so `body` captures nothing.
    @inline(__always)
    private static func read<R>(_ value: UnsafeRawPointer, _ body: (inout C) -> R) -> R {
        body(&UnsafeMutablePointer(mutating: value.assumingMemoryBound(to: C.self)).pointee)
    }
}
