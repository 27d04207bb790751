/// What a content configuration's type adopts of `ContentConfigurationFastPaths`, looked up once
/// for a value and then used for that value and every restyle of it: a restyle returns `Self`,
/// so only setting another value can change the type. A cell keeps its value as
/// `any ContentConfiguration`; the lookup acts on that value in place, as its own type, so no
/// pass casts the value (a cast looks the conformance up again and copies the value). Valid
/// only for values of the type it was made for.
struct ContentFastPathsLookup {
    /// The refinement's requirements for the looked-up type; nil when it adopts only the core protocol.
    private let witness: (any FastPathsWitness.Type)?
    /// `restyleIsPure` of the value looked up: the promise covers every restyle of it.
    let restyleIsPure: Bool

    /// A type that adopts nothing (what a view without content holds).
    static var none: ContentFastPathsLookup { ContentFastPathsLookup(witness: nil, restyleIsPure: false) }

    private init(witness: (any FastPathsWitness.Type)?, restyleIsPure: Bool) {
        self.witness = witness
        self.restyleIsPure = restyleIsPure
    }

    /// Looks up the type of `value` (its metatype is cast, so the value is not copied).
    init(of value: any ContentConfiguration) {
        func witness<C: ContentConfigurationFastPaths>(for type: C.Type) -> any FastPathsWitness.Type { Witness<C>.self }
        guard let adopting = type(of: value) as? any ContentConfigurationFastPaths.Type else {
            self = .none
            return
        }
        let found = witness(for: adopting)
        self.init(witness: found, restyleIsPure: found.restyleIsPure(value))
    }

    /// Whether the type has a cell-state restyle of its own (`updated(forCellState:)`).
    var restylesCellStates: Bool { witness != nil }

    /// `value.updated(forCellState: state)`; only when `restylesCellStates`.
    func restyled(_ value: any ContentConfiguration, forCellState state: CellConfigurationState) -> any ContentConfiguration {
        witness!.restyled(value, forCellState: state)
    }

    func restylesAlike(_ value: any ContentConfiguration, _ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool {
        witness?.restylesAlike(value, a, b) ?? false
    }

    /// Whether `a` and `b` list the same properties: one value, or equal values of a type that
    /// lists by value. False for a type that adopts nothing.
    func listAlike(_ a: any ContentConfiguration, _ b: any ContentConfiguration) -> Bool {
        witness?.listAlike(a, b) ?? false
    }

    func customizedProperties(of value: any ContentConfiguration) -> [InspectableProperty] {
        witness?.customizedProperties(of: value) ?? value.inspectableProperties.filter(\.isCustomized)
    }
}

/// The refinement's requirements for one type, taking the value as the cell keeps it.
private protocol FastPathsWitness {
    static func restyled(_ value: any ContentConfiguration, forCellState state: CellConfigurationState) -> any ContentConfiguration
    static func restylesAlike(_ value: any ContentConfiguration, _ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool
    static func restyleIsPure(_ value: any ContentConfiguration) -> Bool
    static func listAlike(_ a: any ContentConfiguration, _ b: any ContentConfiguration) -> Bool
    static func customizedProperties(of value: any ContentConfiguration) -> [InspectableProperty]
}

private enum Witness<C: ContentConfigurationFastPaths>: FastPathsWitness {
    static func restyled(_ value: any ContentConfiguration, forCellState state: CellConfigurationState) -> any ContentConfiguration {
        value.withValue(as: C.self) { $0.updated(forCellState: state) }
    }

    static func restylesAlike(_ value: any ContentConfiguration, _ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool {
        value.withValue(as: C.self) { $0.restylesAlike(a, b) }
    }

    static func restyleIsPure(_ value: any ContentConfiguration) -> Bool {
        value.withValue(as: C.self) { $0.restyleIsPure }
    }

    static func listAlike(_ a: any ContentConfiguration, _ b: any ContentConfiguration) -> Bool {
        a.withValue(as: C.self) { $0.isIdentical(to: b) || ($0.listsPropertiesByValue && $0.isEqual(to: b)) }
    }

    static func customizedProperties(of value: any ContentConfiguration) -> [InspectableProperty] {
        value.withValue(as: C.self) { $0.customizedProperties }
    }
}

extension ContentConfiguration {
    /// `body` applied to this value, read where it is stored as `C`, which must be its own type
    /// (a lookup is used only for values of the type it was made for).
    fileprivate func withValue<C, R>(as type: C.Type, _ body: (borrowing C) -> R) -> R {
        precondition(Self.self == C.self, "a fast-paths lookup used for a value of another type")
        return withUnsafePointer(to: self) { body(UnsafeRawPointer($0).assumingMemoryBound(to: C.self).pointee) }
    }
}
