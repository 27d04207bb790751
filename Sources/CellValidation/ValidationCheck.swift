/// One check of the conformance suite: an id for `--only`-style filters and reports, a one-line
/// summary, and the body the worker runs.
public struct ValidationCheck: Sendable {
    public let id: String
    public let summary: String
    /// Whether the check draws random inputs (and so prints its seed).
    public let isRandom: Bool
    let body: @Sendable (CheckRecorder) -> Void

    /// Every check, in the order they run: loading first, then values, views, and stress.
    public static let all: [ValidationCheck] = [
        ValidationCheck(id: "strict-load", summary: "loads with dlopen(RTLD_NOW): no unresolved symbols",
                        isRandom: false, body: LoadChecks.strictLoad),
        ValidationCheck(id: "entry-symbol", summary: "exports cellhost_plugin_entry, and nothing else is needed",
                        isRandom: false, body: LoadChecks.entrySymbol),
        ValidationCheck(id: "abi-version", summary: "ABI version: same major, minor not above the host's",
                        isRandom: false, body: LoadChecks.abiVersion),
        ValidationCheck(id: "descriptor", summary: "descriptor valid and identical across calls",
                        isRandom: false, body: LoadChecks.descriptor),
        ValidationCheck(id: "metadata-section", summary: "the metadata section (inspect --no-load) matches the descriptor",
                        isRandom: false, body: MetadataChecks.metadataMatchesDescriptor),
        ValidationCheck(id: "unknown-ids", summary: "unknown extension ids, property names and actions refused",
                        isRandom: false, body: LoadChecks.unknownIdentifiers),
        ValidationCheck(id: "load-time", summary: "load + describe under 100 ms",
                        isRandom: false, body: LoadChecks.loadTime),
        ValidationCheck(id: "value-semantics", summary: "a copy is independent of the original",
                        isRandom: false, body: ConfigurationChecks.valueSemantics),
        ValidationCheck(id: "updated-leaves-original", summary: "updated_for_state leaves the original untouched",
                        isRandom: false, body: ConfigurationChecks.updatedLeavesOriginal),
        ValidationCheck(id: "updated-keeps-customized", summary: "updated_for_state keeps customised (locked) properties",
                        isRandom: false, body: ConfigurationChecks.updatedKeepsCustomized),
        ValidationCheck(id: "pure-restyle", summary: "a restyle declared pure depends on the state and set values alone",
                        isRandom: false, body: ConfigurationChecks.pureRestyle),
        ValidationCheck(id: "extra-traits", summary: "restyles for the level, Bold Text or idiom that draw differently are unequal",
                        isRandom: false, body: ExtraTraitChecks.restylesForExtraTraits),
        ValidationCheck(id: "property-roundtrip", summary: "every property round-trips; typed C calls and libffi calls agree",
                        isRandom: false, body: ConfigurationChecks.propertyRoundTrip),
        ValidationCheck(id: "actions", summary: "every action with ordinary arguments performs or refuses, and sizes usably",
                        isRandom: false, body: ActionChecks.ordinaryArguments),
        ValidationCheck(id: "supports-consistency", summary: "supports() agrees with makeContentView()",
                        isRandom: false, body: ViewChecks.supportsConsistency),
        ValidationCheck(id: "deterministic-drawing", summary: "equal configuration and state draw identical display lists",
                        isRandom: false, body: ViewChecks.deterministicDrawing),
        ValidationCheck(id: "plausible-values", summary: "sizes and canvas arguments are finite and within the host's bounds",
                        isRandom: false, body: ValueChecks.plausibleValues),
        ValidationCheck(id: "lifecycle-memory", summary: "1,000 create/destroy cycles leave memory flat",
                        isRandom: false, body: StressChecks.lifecycleMemory),
        ValidationCheck(id: "fuzz-states", summary: "random states and traits never crash",
                        isRandom: true, body: StressChecks.fuzzStates),
        ValidationCheck(id: "fuzz-values", summary: "hostile property and action values never crash",
                        isRandom: true, body: StressChecks.fuzzValues),
        ValidationCheck(id: "call-duration", summary: "every call returns within 100 ms",
                        isRandom: false, body: StressChecks.callDuration),
    ]

    public static func named(_ id: String) -> ValidationCheck? { all.first { $0.id == id } }
}
