import CellProcess
import CellTestSupport
import CellValidation
import Testing

/// `validate` fails a plugin that breaks out of its worker when it loads: one that forks, or
/// writes to a descriptor it does not own (the worker's channel). The load failure is reported
/// once, by the first check, with what the plugin tried, the rest are skipped, and validate
/// exits with the plugin-fault code. A fault that shows only for some values, states or actions
/// fails each check that drives the plugin there, naming the value, state or action: an unusable
/// size, a sandbox refusal (worded as the sandbox words it, not as a crash), a write to fd 1 or to
/// the channel. A trap in cellhost's own code is cellhost's error, never the plugin's.
@Suite struct ValidateHostileTests {
    func validate(_ plugin: String) throws -> WorkerResult {
        try WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["validate", plugin])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
    }

    func expectLoadFailure(_ result: WorkerResult, saying words: String) {
        #expect(result.termination == .exited(code: 4), "\(result.termination): \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        let first = lines.firstIndex { $0.hasPrefix("[") }
        #expect(first.map { lines[$0].hasPrefix("[FAILED]  strict-load") } == true, "\(result.standardOutput)")
        #expect(result.standardOutput.contains(words), "\(result.standardOutput)")
        let outcomes = lines.filter { $0.hasPrefix("[") }
        #expect(outcomes.dropFirst().allSatisfy { $0.hasPrefix("[SKIPPED]") }, "\(result.standardOutput)")
    }

    @Test func aPluginThatForksFailsValidation() throws {
        let mark = ValidationFixtures.temporaryDirectory() + "/daemon-was-here"
        let plugin = try SandboxTests.build("FORK", target: mark, inInit: true)
        expectLoadFailure(try validate(plugin), saying: "the plugin tried to start a process")
    }

    @Test func aPluginThatWritesToTheChannelFailsValidation() throws {
        let plugin = try ValidationFixtures.build("channel_writer", flags: "-DWRITES=4 -DIN_INIT")
        expectLoadFailure(try validate(plugin), saying: #"bytes that are not a frame of this run: "hello from the plugin\n"#)
    }

    static let drivenFaults = "\(BuiltProducts.packageRoot)/Tests/CellhostEndToEndTests/HostilePlugins/driven_faults.c"

    /// HostilePlugins/driven_faults.c built to commit `fault` when `trigger` happens.
    static func buildDriven(_ fault: String, when trigger: String) throws -> String {
        try PluginCompiler.compile(file: drivenFaults, name: "driven_\(fault.lowercased())_\(trigger.lowercased())",
                                   into: ValidationFixtures.temporaryDirectory(),
                                   extraFlags: "-I '\(ValidationFixtures.brokenPlugins)' -DFAULT_\(fault) -DWHEN_\(trigger)")
    }

    /// The results of `checks` only (each in its own worker, as `validate` runs them).
    func results(_ plugin: String, _ checks: [String]) -> [CheckResult] {
        Validator(executable: BuiltProducts.cellhost, timeout: 20, seed: 7, checks: checks.map { ValidationCheck.named($0)! })
            .run(path: plugin).results
    }

    func describe(_ results: [CheckResult]) -> String { results.map(ValidationReport.line(for:)).joined(separator: "\n") }

    /// Each trigger, the check that drives the plugin there, and how its report names the trigger.
    static let triggers: [(trigger: String, check: String, named: String)] = [
        ("COUNT_42", "property-roundtrip", "count = 42"),
        ("SWIPED", "updated-leaves-original", "state #5 (editing, swiped, drag=lifting)"),
        ("BUMP_42", "actions", "bump(42)"),
    ]

    /// plausible-values sizes the default and one value of each property in a few states; it
    /// passes, so only the check that makes the configuration can find the size.
    @Test(arguments: triggers)
    func anUnusableSizeForOneValueStateOrActionFailsTheCheckThatMakesIt(trigger: String, check: String, named: String) throws {
        let results = results(try Self.buildDriven("NAN_SIZE", when: trigger), [check, "plausible-values"])
        #expect(results.map(\.outcome) == [.failed, .success], "\(describe(results))")
        let details = results[0].details.joined(separator: "\n")
        #expect(details.contains("handed the host an unusable value: com.validation.test.cell size_that_fits returned height nan"),
                "\(details)")
        #expect(details.contains(named), "\(details)")
    }

    @Test(arguments: [("FORK", "the plugin tried to start a process"), ("SOCKET", "the plugin tried to open a network socket")])
    func aSandboxRefusalInAnyCheckFailsItInTheSandboxsWords(fault: String, words: String) throws {
        for (trigger, check, named) in Self.triggers {
            let result = try #require(results(try Self.buildDriven(fault, when: trigger), [check]).first)
            #expect(result.outcome == .failed, "\(fault) when \(trigger): \(describe([result]))")
            #expect(result.details.first?.contains("the worker was stopped because \(words) during: ") == true, "\(describe([result]))")
            #expect(result.details.first?.contains(named) == true, "\(describe([result]))")
        }
    }

    @Test func aStateThatMakesThePluginForkFailsEveryCheckThatRestylesForIt() throws {
        let plugin = try Self.buildDriven("FORK", when: "DISABLED")
        let results = results(plugin, ["updated-leaves-original", "updated-keeps-customized", "actions", "supports-consistency",
                                       "deterministic-drawing", "plausible-values"])
        #expect(results.allSatisfy { $0.outcome == .failed }, "\(describe(results))")
        // A restyle a check makes before naming its first step is not a death while loading,
        // which would skip every later check.
        #expect(!results.contains { $0.details.joined().contains("during: loading") }, "\(describe(results))")
        #expect(results[0].details.first?.contains("because the plugin tried to start a process during: com.validation.test.cell: "
                                                   + "updated_for_state with state #3 (disabled)") == true, "\(describe(results))")
    }

    @Test func aWriteToStandardOutputFailsTheCheckNamingTheCall() throws {
        for (trigger, check, named) in Self.triggers {
            let result = try #require(results(try Self.buildDriven("STDOUT", when: trigger), [check]).first)
            #expect(result.outcome == .failed, "\(trigger): \(describe([result]))")
            let details = result.details.joined(separator: "\n")
            #expect(details.contains("the plugin wrote to standard output (fd 1), which belongs to the host, during: "), "\(details)")
            #expect(details.contains(named) && details.contains(#""debug: count is"#), "\(details)")
        }
        // A plugin that prints on every swiped state is reported once, not for every state fuzzed.
        let fuzzed = try #require(results(try Self.buildDriven("STDOUT", when: "SWIPED"), ["fuzz-states"]).first)
        #expect(fuzzed.outcome == .failed, "\(describe([fuzzed]))")
        #expect(fuzzed.details.filter { $0.contains("wrote to standard output") }.count == 1, "\(describe([fuzzed]))")
    }

    @Test func aWriteToTheChannelDuringACheckFailsIt() throws {
        for (trigger, check, named) in Self.triggers {
            let result = try #require(results(try Self.buildDriven("CHANNEL", when: trigger), [check]).first)
            #expect(result.outcome == .failed, "\(trigger): \(describe([result]))")
            let details = result.details.joined(separator: "\n")
            #expect(details.contains("wrote to its channel what is not a record of this run and was stopped during: "), "\(details)")
            #expect(details.contains(named) && details.contains(#""hello from the plugin\n"#), "\(details)")
        }
    }

    /// The host's trap is injected (`CELLHOST_TEST_HOST_TRAP_IN_CHECK`), as the run's tests do:
    /// every trap a plugin could reach in host code is a bug that gets fixed.
    @Test func aTrapInHostCodeIsCellhostsErrorNotThePlugins() throws {
        let plugin = try ValidationFixtures.build("good")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["validate", plugin, "--check", "descriptor", "--check", "deterministic-drawing"],
                                       environment: ["CELLHOST_TEST_HOST_TRAP_IN_CHECK": "deterministic-drawing"])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        let out = result.standardOutput
        #expect(result.termination == .exited(code: 5), "\(result.termination): \(result.standardError)")
        #expect(out.contains("[SUCCESS] descriptor"), "\(out)")
        #expect(out.contains("[ERROR]   deterministic-drawing"), "\(out)")
        #expect(out.contains("cellhost failed in its own code (a bug in cellhost, not in the plugin): the worker crashed with SIG"),
                "\(out)")
        #expect(out.contains("ValidationWorker"), "the function it stopped in: \(out)")
        #expect(!out.contains("[CRASHED]"), "\(out)")
        #expect(result.standardError.contains("cellhost failed in its own code (a bug in cellhost, not in the plugin) during deterministic-drawing"),
                "\(result.standardError)")
    }
}
