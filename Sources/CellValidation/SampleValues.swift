import CellKit
import CellPlugins

/// Values the checks set: ordinary ones every plugin should take, and hostile ones (NaN,
/// infinities, extremes, empty and huge strings) that must never crash it.
enum SampleValues {
    /// Ordinary values of each encoding, most distinctive first.
    static func ordinary(_ encoding: ValueEncoding) -> [PropertyValue] {
        switch encoding {
        case .bool: [.bool(true), .bool(false)]
        case .int64: [.int(1), .int(2), .int(0), .int(42)]
        case .double: [.double(0.5), .double(0.25), .double(1), .double(0), .double(12)]
        case .string: [.string("Validation"), .string("héllo ✓ 日本"), .string("")]
        case .color: [.color(Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)), .color(Color(red: 1, green: 0, blue: 0, alpha: 0.5))]
        case .size: [.size(Size(width: 120, height: 44)), .size(Size(width: 0, height: 0))]
        case .insets: [.insets(DirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)), .insets(.zero)]
        case .transformer: [.string("grayscale"), .none]
        }
    }

    /// Hostile numbers, among them the extremes an event stream may write in a size or insets
    /// object (±`ValueBounds.configuredNumber`).
    static let hostileDoubles: [Double] = [.nan, -.nan, .infinity, -.infinity, -0.0, .greatestFiniteMagnitude,
                                           -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -1, 1e15,
                                           ValueBounds.configuredNumber, -ValueBounds.configuredNumber]

    /// Whether an event stream can hand a plugin `value`: JSON has no NaN or infinity, size and
    /// insets objects are held to ±`ValueBounds.configuredNumber`, and colours are spelled as
    /// names or hex, so their components lie in 0…1. A plugin must survive every hostile value
    /// but must size sensibly only after values a run could give it.
    static func isStreamReachable(_ value: PropertyValue) -> Bool {
        func inBounds(_ d: Double) -> Bool { ValueBounds.configuredProblem(d) == nil }
        switch value {
        case .double(let d): return d.isFinite
        case .size(let s): return inBounds(s.width) && inBounds(s.height)
        case .insets(let i): return [i.top, i.leading, i.bottom, i.trailing].allSatisfy(inBounds)
        case .color(let c): return [c.red, c.green, c.blue, c.alpha].allSatisfy { (0...1).contains($0) }
        default: return true
        }
    }

    /// Hostile values of each encoding; strings are raw bytes (see `hostileStrings`).
    static func hostile(_ encoding: ValueEncoding, using random: inout SeededGenerator) -> PropertyValue {
        func d() -> Double { hostileDoubles.randomElement(using: &random)! }
        switch encoding {
        case .bool: return .bool(Bool.random(using: &random))
        case .int64: return .int([Int64.min, .max, -1, 0, 1 << 53, -(1 << 31)].randomElement(using: &random)!)
        case .double: return .double(d())
        case .string: return .string("")  // strings go through the raw setter
        case .color: return .color(Color(red: d(), green: d(), blue: d(), alpha: d()))
        case .size: return .size(Size(width: d(), height: d()))
        case .insets: return .insets(DirectionalEdgeInsets(top: d(), leading: d(), bottom: d(), trailing: d()))
        case .transformer:
            return [PropertyValue.none, .string("grayscale"), .string("preferredTint"), .string("monochromeTint")]
                .randomElement(using: &random)!
        }
    }

    /// NUL-terminated byte strings: empty, huge, and invalid UTF-8 of several kinds.
    static func hostileString(using random: inout SeededGenerator) -> (name: String, bytes: [UInt8]) {
        let kinds: [(String, [UInt8])] = [
            ("empty", []),
            ("1 MiB of text", [UInt8](repeating: 0x61, count: 1 << 20)),
            ("a lone continuation byte", [0x80]),
            ("bytes 0xFF 0xFE", [0xFF, 0xFE, 0x41]),
            ("a truncated 3-byte sequence", [0x41, 0xE2, 0x82]),
            ("an overlong encoding of '/'", [0xC0, 0xAF]),
            ("a UTF-16 surrogate in UTF-8", [0xED, 0xA0, 0x80]),
            ("64 KiB of combining marks", Array(repeating: [0xCC, 0x81], count: 32 << 10).flatMap { $0 }),
            ("control characters", [0x01, 0x1B, 0x5B, 0x32, 0x4A, 0x7F, 0x0A]),
        ]
        let kind = kinds.randomElement(using: &random)!
        return (kind.0, kind.1 + [0])
    }

    /// A random state of the kind a cell or a header can be in, traits included.
    static func randomState(using random: inout SeededGenerator) -> CellConfigurationState {
        func flag() -> Bool { Bool.random(using: &random) }
        let traits = TraitCollection(
            userInterfaceStyle: UserInterfaceStyle.allCases.randomElement(using: &random)!,
            preferredContentSizeCategory: ContentSizeCategory.allCases.randomElement(using: &random)!,
            layoutDirection: LayoutDirection.allCases.randomElement(using: &random)!,
            horizontalSizeClass: UserInterfaceSizeClass.allCases.randomElement(using: &random)!,
            verticalSizeClass: UserInterfaceSizeClass.allCases.randomElement(using: &random)!,
            displayScale: [1, 2, 3].randomElement(using: &random)!,
            listEnvironment: ListEnvironment.allCases.randomElement(using: &random)!,
            accessibilityContrast: AccessibilityContrast.allCases.randomElement(using: &random)!)
        var custom: [ConfigurationStateCustomKey: CustomStateValue] = [:]
        let keys = ["paused", "", "downloading", String(repeating: "k", count: 4096), "ключ ✓"]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let value: CustomStateValue = switch Int.random(in: 0..<4, using: &random) {
            case 0: .bool(flag())
            case 1: .int([Int64.min, .max, 0, 1, -1].randomElement(using: &random)!)
            case 2: .double(hostileDoubles.randomElement(using: &random)!)
            default: .string(["", "on", String(repeating: "ü", count: 1 << 16)].randomElement(using: &random)!)
            }
            custom[ConfigurationStateCustomKey(keys.randomElement(using: &random)!)] = value
        }
        var state = CellConfigurationState(
            traitCollection: traits, isHighlighted: flag(), isSelected: flag(), isDisabled: flag(), isFocused: flag(),
            isPinned: flag(), isEditing: flag(), isExpanded: flag(), isSwiped: flag(), isReordering: flag(),
            cellDragState: CellDragState.allCases.randomElement(using: &random)!,
            cellDropState: CellDropState.allCases.randomElement(using: &random)!, customStates: custom)
        // The ABI 1.2 traits are drawn last, so a seed gives the same earlier draws it always gave.
        state.traitCollection.userInterfaceLevel = UserInterfaceLevel.allCases.randomElement(using: &random)!
        state.traitCollection.legibilityWeight = LegibilityWeight.allCases.randomElement(using: &random)!
        state.traitCollection.userInterfaceIdiom = UserInterfaceIdiom.allCases.randomElement(using: &random)!
        return state
    }

    /// A fixed set of ordinary states: each flag alone, dark, accessibility text, RTL, a custom state.
    static let ordinaryStates: [CellConfigurationState] = {
        var states = [CellConfigurationState(), CellConfigurationState(isHighlighted: true),
                      CellConfigurationState(isSelected: true), CellConfigurationState(isDisabled: true),
                      CellConfigurationState(isHighlighted: true, isSelected: true),
                      CellConfigurationState(isEditing: true, isSwiped: true, cellDragState: .lifting),
                      CellConfigurationState(customStates: ["paused": .bool(true)])]
        states.append(CellConfigurationState(traitCollection: TraitCollection(userInterfaceStyle: .dark)))
        states.append(CellConfigurationState(traitCollection: TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)))
        states.append(CellConfigurationState(traitCollection: TraitCollection(layoutDirection: .rightToLeft)))
        return states
    }()

    /// Whether two read-back values are the same, NaN included.
    static func same(_ a: PropertyValue, _ b: PropertyValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.color(let x), .color(let y)):
            return zip([x.red, x.green, x.blue, x.alpha], [y.red, y.green, y.blue, y.alpha]).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        case (.transformer(let x), .string(let name)), (.string(let name), .transformer(let x)): return x.name == name
        default: return a == b
        }
    }
}
