import CellValidation
import CellTestSupport
import Testing

/// Every check is proven able to fail: each broken plugin breaks one rule, and exactly the check
/// for that rule reports failed or crashed; the well-behaved plugins pass every check.
@Suite struct ValidateCommandTests {
    static let seed: UInt64 = 20_261_122

    func validate(_ path: String, timeout: Double = 20, checks: [ValidationCheck] = ValidationCheck.all,
                  seed: UInt64 = ValidateCommandTests.seed) -> ValidationReport {
        Validator(executable: BuiltProducts.cellhost, timeout: timeout, seed: seed, checks: checks).run(path: path)
    }

    func describe(_ report: ValidationReport) -> String {
        report.results.map(ValidationReport.line(for:)).joined(separator: "\n")
    }

    static let brokenPlugins: [(file: String, check: String)] = [
        ("unresolved_symbol", "strict-load"),
        ("missing_entry", "entry-symbol"),
        ("future_minor", "abi-version"),
        ("unstable_descriptor", "descriptor"),
        ("greedy_extension", "unknown-ids"),
        ("slow_init", "load-time"),
        ("shared_copy", "value-semantics"),
        ("mutating_update", "updated-leaves-original"),
        ("forgetful_update", "updated-keeps-customized"),
        ("stale_restyle", "pure-restyle"),
        ("trait_blind_equal", "extra-traits"),
        ("lost_setter", "property-roundtrip"),
        ("stale_reuse", "supports-consistency"),
        ("restless_draw", "deterministic-drawing"),
        ("leaky_config", "lifecycle-memory"),
        ("fragile_state", "fuzz-states"),
        ("fragile_value", "fuzz-values"),
        ("unbounded_count", "fuzz-values"),
        ("slow_equal", "call-duration"),
        ("infinite_size", "plausible-values"),
        ("rash_action", "actions"),
        ("absurd_stroke", "plausible-values"),
        ("builtin_type_id", "descriptor"),
        ("unterminated_name", "descriptor"),
        ("mismatched_metadata", "metadata-section"),
    ]

    /// Every check that makes a configuration sizes it, so a size that is unusable once the title
    /// is set fails each check that sets the title (or every property), not plausible-values alone.
    static let alsoReported: [String: Set<String>] = [
        "infinite_size": ["value-semantics", "updated-keeps-customized", "pure-restyle", "property-roundtrip",
                          "supports-consistency", "deterministic-drawing", "fuzz-values", "call-duration"],
    ]

    @Test func everyCheckHasABrokenPlugin() {
        #expect(Set(Self.brokenPlugins.map(\.check)) == Set(ValidationCheck.all.map(\.id)))
    }

    @Test(arguments: brokenPlugins)
    func exactlyTheBrokenRuleIsReported(file: String, check: String) throws {
        let report = validate(try ValidationFixtures.build(file))
        let problems = report.results.filter { $0.outcome.isProblem }.map(\.check)
        let expected = ValidationCheck.all.map(\.id).filter { $0 == check || Self.alsoReported[file]?.contains($0) == true }
        #expect(problems == expected, "\(file).so:\n\(describe(report))")
        #expect(report.hasProblems)
        let result = try #require(report.results.first { $0.check == check })
        #expect(!result.details.isEmpty, "a failure must say why")
    }

    @Test(arguments: ["good", "ProgressMeter", "BadgeCell"])
    func wellBehavedPluginsPassEveryCheck(name: String) throws {
        let path = name == "good" ? try ValidationFixtures.build("good") : BuiltProducts.samplePlugin(name)
        let report = validate(path)
        #expect(report.results.map(\.check) == ValidationCheck.all.map(\.id))
        #expect(report.results.allSatisfy { $0.outcome == .success }, "\(name):\n\(describe(report))")
        #expect(!report.hasProblems)
    }

    @Test func slowLoadingAboveOneHundredMillisecondsIsAWarning() throws {
        let path = try ValidationFixtures.build("slow_init", flags: "-DINIT_DELAY_MS=150")
        let report = validate(path, checks: [ValidationCheck.named("load-time")!])
        #expect(report.results.map(\.outcome) == [.warning], "\(describe(report))")
        #expect(!report.hasProblems)
    }

    @Test func aHungCallIsStoppedByTheWatchdogAndNamed() throws {
        let path = try ValidationFixtures.build("hang_in_draw")
        let checks = ["descriptor", "deterministic-drawing"].map { ValidationCheck.named($0)! }
        let clock = ContinuousClock()
        let start = clock.now
        let report = validate(path, timeout: 1.5, checks: checks)
        #expect(clock.now - start < .seconds(15))
        #expect(report.results.map(\.outcome) == [.success, .failed], "\(describe(report))")
        let details = report.results[1].details.joined()
        #expect(details.contains("a call did not return within 1.5 s"))
        #expect(details.contains("drawing the default"))
    }

    @Test func aCrashNamesTheCallAndTheSeedReplaysIt() throws {
        let path = try ValidationFixtures.build("fragile_value")
        let check = [ValidationCheck.named("fuzz-values")!]
        let first = validate(path, checks: check), second = validate(path, checks: check)
        #expect(first.results[0].outcome == .crashed)
        #expect(first.results[0].details.first?.contains("SIGSEGV during") == true, "\(describe(first))")
        #expect(first.results[0].details == second.results[0].details)
        #expect(ValidationReport(path: path, seed: Self.seed, results: first.results).summary.contains("--seed \(Self.seed)"))
    }

    /// A size the host would refuse in a run, after a value a stream could send, fails
    /// fuzz-values naming the value; the hostile values no stream can send are only survived.
    @Test func fuzzValuesJudgesTheSizeAfterValuesAStreamCouldSend() throws {
        let check = [ValidationCheck.named("fuzz-values")!]
        let unbounded = validate(try ValidationFixtures.build("unbounded_count"), checks: check)
        #expect(unbounded.results[0].outcome == .failed, "\(describe(unbounded))")
        let details = unbounded.results[0].details.joined(separator: "\n")
        #expect(details.contains("after count = "), "\(details)")
        #expect(details.contains("size_that_fits returned height"), "\(details)")
        let good = validate(try ValidationFixtures.build("good"), checks: check)
        #expect(good.results[0].outcome == .success, "\(describe(good))")
    }

    @Test func aMissingFileFailsStrictLoadWithItsName() {
        let report = validate("/nonexistent/plugin.so", checks: Array(ValidationCheck.all.prefix(3)))
        #expect(report.results.map(\.outcome) == [.failed, .skipped, .skipped], "\(describe(report))")
        #expect(report.results[0].details.first?.contains("/nonexistent/plugin.so") == true)
    }

    /// A plugin that hangs or crashes while loading fails the first check once; every later
    /// check is skipped instead of dying the same way after its own watchdog period.
    @Test func aLoadThatHangsOrCrashesIsReportedOnceAndTheRestSkipped() throws {
        let hanging = try ValidationFixtures.build("slow_init", flags: "-DINIT_DELAY_MS=600000")
        let clock = ContinuousClock()
        let start = clock.now
        let hung = validate(hanging, timeout: 1.5)
        #expect(clock.now - start < .seconds(10), "one watchdog period, not one per check")
        #expect(hung.results.map(\.check) == ValidationCheck.all.map(\.id))
        #expect(hung.results.map(\.outcome) == [.failed] + Array(repeating: .skipped, count: ValidationCheck.all.count - 1),
                "\(describe(hung))")
        #expect(hung.results[0].details.joined().contains("did not return within 1.5 s"), "\(describe(hung))")
        #expect(hung.results.dropFirst().allSatisfy { $0.details == ["the plugin did not load (strict-load reports why)"] })

        let crashing = validate(try ValidationFixtures.build("crash_in_init"))
        #expect(crashing.results.map(\.outcome)
                == [.crashed] + Array(repeating: .skipped, count: ValidationCheck.all.count - 1), "\(describe(crashing))")
        #expect(crashing.results[0].details.first?.contains("SIGSEGV during: loading") == true, "\(describe(crashing))")
    }
}
