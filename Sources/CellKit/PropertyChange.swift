/// What happened to one property during an update, and why: the answer to "why did my cell stop
/// highlighting?" (a customised property is locked, and the trace says so).
public struct PropertyChange: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// `updated(for:)` gave it the state's default.
        case restyledByState
        /// Customised, so `updated(for:)` left it as the user set it.
        case lockedKept
        /// Customised to a dynamic colour, and `updated(for:)` gave the same colour resolved for
        /// the new traits (a plugin gets one RGBA per colour, so the host sets it again when the
        /// appearance changes): still locked, now showing the other appearance.
        case reResolved
        /// `updateConfiguration(using:)` or the update handler changed it.
        case setByHook
        /// An event set it (the engine knows which properties its events set).
        case setByEvent
        /// Not customised and no one changed it.
        case unchanged
    }

    public var name: String
    public var oldValue: PropertyValue
    public var newValue: PropertyValue
    /// Customised after the whole update.
    public var isCustomized: Bool
    public var reason: Reason

    public init(name: String, oldValue: PropertyValue, newValue: PropertyValue, isCustomized: Bool, reason: Reason) {
        self.name = name
        self.oldValue = oldValue
        self.newValue = newValue
        self.isCustomized = isCustomized
        self.reason = reason
    }

    public var didChange: Bool { oldValue != newValue }

    /// One change per property, in the order of `afterHooks` (then any property that disappeared,
    /// as when a hook installs a configuration of another type), from the inspectable properties
    /// before `updated(for:)`, after it, and after the update hooks. `setByEvent` names the
    /// properties the triggering event set. `includingUnchanged: false` leaves out the
    /// properties whose reason is `unchanged` (most of them), which a trace does not show.
    public static func changes(before: [InspectableProperty], afterUpdate: [InspectableProperty],
                               afterHooks: [InspectableProperty], setByEvent: Set<String> = [],
                               includingUnchanged: Bool = true) -> [PropertyChange] {
        // Configurations of one type list properties in the same order: match by position and
        // fall back to names only when the lists differ.
        let aligned = sameNames(before, afterHooks) && sameNames(afterUpdate, afterHooks)
        if aligned {
            return alignedChanges(before: before, afterUpdate: afterUpdate, afterHooks: afterHooks,
                                  setByEvent: setByEvent, includingUnchanged: includingUnchanged)
        }
        let beforeByName = aligned ? [:] : Dictionary(before.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let updatedByName = aligned ? [:] : Dictionary(afterUpdate.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

        var result: [PropertyChange] = []
        result.reserveCapacity(afterHooks.count)
        for (i, final) in afterHooks.enumerated() {
            let old = aligned ? before[i] : beforeByName[final.name]
            let updated = aligned ? afterUpdate[i] : updatedByName[final.name]
            let oldValue = old?.value ?? .none
            let updatedValue = updated?.value ?? .none
            let reason: Reason
            if setByEvent.contains(final.name) {
                reason = .setByEvent
            } else if updated == nil || final.value != updatedValue || final.isCustomized != (updated?.isCustomized ?? false) {
                reason = .setByHook
            } else if updatedValue != oldValue {
                reason = final.isCustomized && isReResolution(of: oldValue, as: updatedValue) ? .reResolved : .restyledByState
            } else if final.isCustomized {
                reason = .lockedKept
            } else {
                reason = .unchanged
            }
            result.append(PropertyChange(name: final.name, oldValue: oldValue, newValue: final.value,
                                         isCustomized: final.isCustomized, reason: reason))
        }
        result.removeAll { !includingUnchanged && $0.reason == .unchanged }
        if !aligned {
            let present = Set(afterHooks.map(\.name))
            for old in before where !present.contains(old.name) {
                result.append(PropertyChange(name: old.name, oldValue: old.value, newValue: .none,
                                             isCustomized: false, reason: .setByHook))
            }
        }
        return result
    }

    /// `changes` of three lists with the same names in the same order: the same reasons, found by
    /// comparing the elements in place, and a change made only for a property that is reported.
    private static func alignedChanges(before: [InspectableProperty], afterUpdate: [InspectableProperty],
                                       afterHooks: [InspectableProperty], setByEvent: Set<String>,
                                       includingUnchanged: Bool) -> [PropertyChange] {
        // `reportableLists` hands out one list for stages that list alike (one value, or equal in
        // every value and flag): a stage whose list is the previous stage's changed nothing, and
        // its values are not compared.
        let hooksChangedNothing = afterHooks.sharesStorage(with: afterUpdate)
        let updateChangedNothing = afterUpdate.sharesStorage(with: before)
        var result: [PropertyChange] = []
        result.reserveCapacity(includingUnchanged ? afterHooks.count : 4)
        for i in afterHooks.indices {
            let reason: Reason
            if !setByEvent.isEmpty && setByEvent.contains(afterHooks[i].name) {
                reason = .setByEvent
            } else if !hooksChangedNothing && (afterHooks[i].value != afterUpdate[i].value
                                                || afterHooks[i].isCustomized != afterUpdate[i].isCustomized) {
                reason = .setByHook
            } else if !updateChangedNothing && afterUpdate[i].value != before[i].value {
                reason = afterHooks[i].isCustomized && isReResolution(of: before[i].value, as: afterUpdate[i].value)
                    ? .reResolved : .restyledByState
            } else if afterHooks[i].isCustomized {
                reason = .lockedKept
            } else {
                guard includingUnchanged else { continue }
                reason = .unchanged
            }
            result.append(PropertyChange(name: afterHooks[i].name, oldValue: before[i].value, newValue: afterHooks[i].value,
                                         isCustomized: afterHooks[i].isCustomized, reason: reason))
        }
        return result
    }

    /// Whether `new` is the colour `old` is, resolved for other traits: one colour name, another
    /// value (a built-in configuration keeps a dynamic colour whole, so only a plugin's re-set
    /// property reads so).
    private static func isReResolution(of old: PropertyValue, as new: PropertyValue) -> Bool {
        guard case .color(let a) = old, case .color(let b) = new, let name = a.name else { return false }
        return name == b.name
    }

    /// Whether two lists name the same properties in the same order, compared in place (`zip`
    /// copies every element of both).
    private static func sameNames(_ a: [InspectableProperty], _ b: [InspectableProperty]) -> Bool {
        guard a.count == b.count else { return false }
        if a.sharesStorage(with: b) { return true }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.indices.allSatisfy { x[$0].name == y[$0].name } }
        }
    }
}

extension PropertyChange {
    /// The three property lists `changes(before:afterUpdate:afterHooks:)` diffs.
    public typealias PropertyLists = (before: [InspectableProperty], afterUpdate: [InspectableProperty],
                                      afterHooks: [InspectableProperty])

    /// The lists a trace diffs with `changes(…, includingUnchanged: false)` for a content
    /// configuration's three stages, read once per distinct configuration: a stage equal to an
    /// earlier one reuses that stage's list. Table-described configurations compare by value
    /// (their synthesised equality covers every value and its customisation flag, so equal
    /// configurations list alike); any other kind only when it is the very same value. Three
    /// equal stages (a pass that left the configuration as it was) give only their customised
    /// properties: nothing else can be reported then, since every value is unchanged and
    /// whatever an event set was customised by the set.
    ///
    /// `recent`, when given, carries full reads from pass to pass: a stage that matches a
    /// configuration it holds (the last pass's final stage, as the "before" stage mostly is)
    /// takes that list instead of being read again, and it keeps this pass's final stage
    /// whenever that was read in full.
    public static func reportableLists(before: (any ContentConfiguration)?, afterUpdate: (any ContentConfiguration)?,
                                       afterHooks: (any ContentConfiguration)?,
                                       recent: RecentFullReads<any ContentConfiguration>? = nil) -> PropertyLists {
        let lookups = recent?.fastPathsLookups ?? LastFastPathsLookup()
        return readOnce(before, afterUpdate, afterHooks, recent: recent, read: { $0.inspectableProperties },
                        same: { a, b in a.listsAlike(b, by: lookups) },
                        readAlike: { $0.customizedProperties(by: lookups) })
    }

    /// The same for a background configuration (or any other table-described value type).
    @_specialize(exported: true, where C == BackgroundConfiguration)
    public static func reportableLists<C: PropertyInspectable & Equatable>(before: C?, afterUpdate: C?, afterHooks: C?,
                                                                          recent: RecentFullReads<C>? = nil)
        -> PropertyLists
    {
        readOnce(before, afterUpdate, afterHooks, recent: recent, read: { $0.inspectableProperties }, same: ==,
                 readAlike: { $0.customizedProperties })
    }

    /// `readAlike` reads three stages that all match (`recent` stays as it was).
    private static func readOnce<C>(_ before: C?, _ afterUpdate: C?, _ afterHooks: C?, recent: RecentFullReads<C>?,
                                    read: (C) -> [InspectableProperty], same: (C, C) -> Bool,
                                    readAlike: (C) -> [InspectableProperty]) -> PropertyLists {
        func matches(_ a: C?, _ b: C?) -> Bool {
            guard let a, let b else { return false }
            return same(a, b)
        }
        let updatedMatchesBefore = matches(afterUpdate, before), finalMatchesUpdated = matches(afterHooks, afterUpdate)
        if updatedMatchesBefore, finalMatchesUpdated, let before {
            let list = readAlike(before)
            return (list, list, list)
        }
        func readFull(_ stage: C?) -> [InspectableProperty] {
            guard let stage else { return [] }
            return recent?.list(matching: stage, same: same) ?? read(stage)
        }
        let beforeList = readFull(before)
        let updatedList = updatedMatchesBefore ? beforeList : readFull(afterUpdate)
        let finalList = finalMatchesUpdated ? updatedList
            : matches(afterHooks, before) ? beforeList : readFull(afterHooks)
        if let afterHooks { recent?.keep(afterHooks, list: finalList) }
        return (beforeList, updatedList, finalList)
    }
}
