import CCellHostABI
import CellKit
import Testing
@testable import CellPlugins

/// The host services answered from what they answered last for the same traits give what
/// resolving anew gives, whatever order traits and names come in.
@Suite struct TraitKeyedAnswersTests {
    static let traitSets: [TraitCollection] = {
        var sets: [TraitCollection] = [.default, TraitCollection(userInterfaceStyle: .dark)]
        var t = TraitCollection(displayScale: 3)
        t.preferredContentSizeCategory = .accessibilityExtraLarge
        sets.append(t)
        t.listEnvironment = .sidebar
        sets.append(t)
        t.layoutDirection = .rightToLeft
        t.userInterfaceStyle = .dark
        sets.append(t)
        t.accessibilityContrast = .high
        sets.append(t)
        return sets
    }()

    static let names = ["label", "systemBlue", "tintColor", "systemRed", "secondarySystemBackground", "noSuchColour", ""]

    func resolvedAnew(_ name: String, _ traits: TraitCollection) -> cellhost_color? {
        Color.named[name].map { cellhost_color($0.resolved(with: traits)) }
    }

    func same(_ a: cellhost_color?, _ b: cellhost_color?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
        default: false
        }
    }

    @Test func systemColoursFollowTraitsAndNames() {
        let answers = TraitKeyedAnswers()
        // Each traits set twice in a row, then the sets interleaved, names in both orders.
        var order = Self.traitSets.flatMap { [$0, $0] }
        order += Self.traitSets + Self.traitSets.reversed()
        for (step, traits) in order.enumerated() {
            var abi = cellhost_traits(traits)
            let names = step.isMultiple(of: 2) ? Self.names : Self.names.reversed()
            for name in names {
                let kept = name.withCString { answers.systemColor(named: $0, traits: &abi) }
                #expect(same(kept, resolvedAnew(name, traits)), "\(name) under \(traits)")
            }
        }
        // NULL traits are the default traits.
        for name in Self.names {
            #expect(same(name.withCString { answers.systemColor(named: $0, traits: nil) }, resolvedAnew(name, .default)))
        }
    }

    @Test func aNameIsMatchedWhole() {
        let answers = TraitKeyedAnswers()
        var abi = cellhost_traits(TraitCollection.default)
        let label = "label".withCString { answers.systemColor(named: $0, traits: &abi) }
        #expect(label != nil)
        for name in ["labe", "labelX", "secondaryLabel", "Label"] {
            #expect(same(name.withCString { answers.systemColor(named: $0, traits: &abi) }, resolvedAnew(name, .default)), "\(name)")
        }
    }

    @Test func namesPastTheLimitAreStillResolved() {
        let answers = TraitKeyedAnswers()
        var abi = cellhost_traits(TraitCollection(userInterfaceStyle: .dark))
        let names = (0..<(TraitKeyedAnswers.colorLimit + 10)).map { "unknown\($0)" } + Self.names
        for _ in 0..<2 {
            for name in names {
                let kept = name.withCString { answers.systemColor(named: $0, traits: &abi) }
                #expect(same(kept, resolvedAnew(name, TraitCollection(userInterfaceStyle: .dark))), "\(name)")
            }
        }
    }

    @Test func layoutMarginsFollowTheTraits() {
        let answers = TraitKeyedAnswers()
        for traits in Self.traitSets + Self.traitSets.reversed() + Self.traitSets {
            var abi = cellhost_traits(traits)
            let expected = cellhost_insets(SystemDefaults.defaultCellLayoutMargins(for: traits))
            for _ in 0..<2 {
                let kept = answers.layoutMargins(traits: &abi)
                #expect(kept.top == expected.top && kept.leading == expected.leading && kept.bottom == expected.bottom
                    && kept.trailing == expected.trailing, "\(traits)")
            }
        }
        let defaults = cellhost_insets(SystemDefaults.defaultCellLayoutMargins(for: .default))
        #expect(answers.layoutMargins(traits: nil).leading == defaults.leading)
    }

    /// Margins and colours kept for one set of traits are dropped together when others come.
    @Test func marginsAndColoursKeptTogetherDoNotLeakAcrossTraits() {
        let answers = TraitKeyedAnswers()
        let regular = TraitCollection.default
        var sidebar = TraitCollection(userInterfaceStyle: .dark)
        sidebar.listEnvironment = .sidebar
        sidebar.preferredContentSizeCategory = .accessibilityExtraExtraExtraLarge
        for _ in 0..<3 {
            for traits in [regular, sidebar] {
                var abi = cellhost_traits(traits)
                let margins = answers.layoutMargins(traits: &abi)
                #expect(margins.leading == SystemDefaults.defaultCellLayoutMargins(for: traits).leading)
                let label = "label".withCString { answers.systemColor(named: $0, traits: &abi) }
                #expect(same(label, resolvedAnew("label", traits)))
                #expect(same(answers.layoutMargins(traits: &abi), margins))
            }
        }
    }

    func same(_ a: cellhost_insets, _ b: cellhost_insets) -> Bool {
        a.top == b.top && a.leading == b.leading && a.bottom == b.bottom && a.trailing == b.trailing
    }
}
