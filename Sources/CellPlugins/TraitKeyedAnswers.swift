import CCellHostABI
import CellKit
import Glibc
import Synchronization

/// What the trait-dependent host services (`default_layout_margins`, `system_color`) answered
/// for the traits a plugin passed last, with the extra traits of the running call that applied
/// to them (`PluginCallScope.extraTraits(for:)`: the elevated level changes system colours). Plugins ask them several times per pass with the same
/// traits; converting the C traits and looking the answer up by `TraitCollection` (whose hash
/// hashes every trait's name) cost more than the rest of the call. The answers depend only on
/// the traits and the name (`Color.named` and the default cell's margins are constants), so the
/// same C traits get the same answer; other traits replace what is kept.
final class TraitKeyedAnswers: Sendable {
    static let shared = TraitKeyedAnswers()

    /// At most this many colour names are kept for one set of traits; past it they are asked anew.
    static let colorLimit = 64

    private struct KnownColor {
        /// The name's bytes with their terminating NUL.
        let name: ContiguousArray<CChar>
        /// nil: no system colour has this name.
        let color: cellhost_color?
    }

    private struct Answers {
        /// The traits the answers are for: nil when the plugin passed NULL (the default traits).
        var traits: cellhost_traits?
        /// The extra traits the answers are for: nil when none applied (base, regular, phone).
        var extra: cellhost_extra_traits?
        var margins: cellhost_insets?
        var colors: [KnownColor] = []

        func isFor(_ other: UnsafePointer<cellhost_traits>?, _ otherExtra: cellhost_extra_traits?) -> Bool {
            let sameTraits = switch (traits, other) {
            case (nil, nil): true
            case (let kept?, let other?): kept.hasSameValues(as: other.pointee)
            default: false
            }
            guard sameTraits else { return false }
            return switch (extra, otherExtra) {
            case (nil, nil): true
            case (let kept?, let other?): kept.hasSameValues(as: other)
            default: false
            }
        }

        /// Drops every answer unless they are for `other` and `otherExtra`.
        mutating func keepOnlyFor(_ other: UnsafePointer<cellhost_traits>?, _ otherExtra: cellhost_extra_traits?) {
            guard !isFor(other, otherExtra) else { return }
            self = Answers(traits: other?.pointee, extra: otherExtra)
        }
    }

    /// Starts as answers for the NULL traits with nothing known.
    private let answers = Mutex(Answers())

    /// `default_layout_margins(traits)`.
    func layoutMargins(traits: UnsafePointer<cellhost_traits>?) -> cellhost_insets {
        let extra = PluginCallScope.extraTraits(for: traits)
        if let known = answers.withLock({ $0.isFor(traits, extra) ? $0.margins : nil }) { return known }
        let margins = cellhost_insets(SystemDefaults.layoutMargins(for: Self.traitCollection(traits, extra)))
        answers.withLock { kept in
            kept.keepOnlyFor(traits, extra)
            kept.margins = margins
        }
        return margins
    }

    /// The system colour `name` resolved for `traits`, nil when no system colour has that name.
    func systemColor(named name: UnsafePointer<CChar>, traits: UnsafePointer<cellhost_traits>?) -> cellhost_color? {
        // The answer only, found by index: taking the matching entry out copied its name's array.
        let extra = PluginCallScope.extraTraits(for: traits)
        let known: cellhost_color?? = answers.withLock { kept in
            guard kept.isFor(traits, extra) else { return nil }
            for i in kept.colors.indices where kept.colors[i].name.withUnsafeBufferPointer({ strcmp($0.baseAddress!, name) == 0 }) {
                return .some(kept.colors[i].color)
            }
            return nil
        }
        if let known { return known }
        let color = Color.named[String(cString: name)].map { cellhost_color($0.resolved(with: Self.traitCollection(traits, extra))) }
        answers.withLock { kept in
            kept.keepOnlyFor(traits, extra)
            guard kept.colors.count < Self.colorLimit else { return }
            kept.colors.append(KnownColor(name: ContiguousArray(UnsafeBufferPointer(start: name, count: strlen(name) + 1)),
                                          color: color))
        }
        return color
    }

    private static func traitCollection(_ traits: UnsafePointer<cellhost_traits>?, _ extra: cellhost_extra_traits?) -> TraitCollection {
        let base = TraitCollection(abi: traits)
        return extra.map { $0.applied(to: base) } ?? base
    }
}
