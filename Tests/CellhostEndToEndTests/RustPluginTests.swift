import CellIO
import CellProcess
import CellRuntime
import CellTestSupport
import CellValidation
import Glibc
import Testing

/// The Rust SDK end to end: the crate's own tests (its bindings against plugin.h, field by
/// field, and panics caught at the boundary) pass, and the Rust sample plugin built with cargo
/// is inspected, validated and run by the built tool like the C and Swift samples.
@Suite struct RustPluginTests {
    /// Cargo output lives outside git, in one folder shared by the crate and the sample.
    static let targetDirectory = BuiltProducts.packageRoot + "/.build-rust"

    /// `cargo` from PATH (Debian's, installed by .ci/setup) or rustup's default place.
    static let cargo: String? = {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let home = getenv("HOME").map { String(cString: $0) } ?? "/root"
        let candidates = path.split(separator: ":").map { "\($0)/cargo" } + ["\(home)/.cargo/bin/cargo"]
        return candidates.first { access($0, X_OK) == 0 }
    }()

    struct Outcome {
        var status: Int32?
        var output: String
        var error: String
    }

    static func run(_ executable: String, _ arguments: [String], timeout: Double = 600) throws -> Outcome {
        let process = WorkerProcess(executable: executable, arguments: arguments,
                                    environment: ["CARGO_TARGET_DIR": targetDirectory, "CARGO_TERM_COLOR": "never"])
        let result = try process.run(limits: WorkerLimits(totalSeconds: timeout, outputBytes: 16 << 20)) { _ in }
        var status: Int32?
        if case .exited(let code) = result.termination { status = code }
        return Outcome(status: status, output: result.standardOutput, error: result.standardError)
    }

    static func cargo(_ arguments: [String]) throws -> Outcome {
        guard let cargo else {
            return Outcome(status: nil, output: "", error: "cargo is not installed: run .ci/setup")
        }
        return try run(cargo, arguments + ["--offline"])
    }

    /// The sample built once for every test here: its path, or why it did not build.
    static let samplePlugin: Result<String, BuildFailure> = {
        let manifest = BuiltProducts.packageRoot + "/Plugins/RustRating/Cargo.toml"
        do {
            let outcome = try cargo(["build", "--release", "--manifest-path", manifest])
            guard outcome.status == 0 else { return .failure(BuildFailure(log: outcome.error)) }
        } catch {
            return .failure(BuildFailure(log: "\(error)"))
        }
        return .success(targetDirectory + "/release/librust_rating.so")
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "cargo build of Plugins/RustRating failed:\n\(log)" }
    }

    @Test func theCrateMatchesPluginHAndCatchesPanics() throws {
        let outcome = try Self.cargo(["test", "--manifest-path", BuiltProducts.packageRoot + "/SDK/Rust/Cargo.toml"])
        #expect(outcome.status == 0, "cargo test in SDK/Rust:\n\(outcome.output)\n\(outcome.error)")
        for test in ["every_struct_size_field_offset_and_constant_matches_the_header",
                     "the_checked_list_covers_every_struct_field_and_constant_of_the_header",
                     "a_panicking_action_is_a_refusal_and_a_refusal_is_logged"] {
            #expect(outcome.output.contains("test \(test) ... ok"), "\(test) did not run and pass:\n\(outcome.output)")
        }
    }

    @Test func inspectDescribesTheSample() throws {
        let plugin = try Self.samplePlugin.get()
        let outcome = try Self.run(BuiltProducts.cellhost, ["inspect", plugin])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("Plugin   com.cellhost.samples.rust  Rust samples 1.0.0 by cellhost samples"))
        #expect(outcome.output.contains("Type com.cellhost.samples.rating (Star rating)"))
        for line in ["  count       int     q", "  rating      double  d", "  title       string  *",
                     "  tint        color   {Color=dddd}", "  showsValue  bool    B", "  rate(stars: double)  d", "  clear()  "] {
            #expect(outcome.output.contains(line), "missing \(line) in:\n\(outcome.output)")
        }
        #expect(outcome.output.contains("restyle declared pure"))
    }

    @Test func theSamplePassesEveryValidationCheck() throws {
        let plugin = try Self.samplePlugin.get()
        let report = Validator(executable: BuiltProducts.cellhost, timeout: 30, seed: 20_261_126,
                               checks: ValidationCheck.all).run(path: plugin)
        let lines = report.results.map(ValidationReport.line(for:)).joined(separator: "\n")
        #expect(report.results.map(\.check) == ValidationCheck.all.map(\.id))
        #expect(report.results.allSatisfy { $0.outcome == .success }, "\(lines)")
        #expect(!report.hasProblems)
    }

    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "reviews"}}
        {"item": {"id": "coffee", "type": "com.cellhost.samples.rating", "set": {"title": "Coffee", "rating": 3.5}}}
        {"item": {"id": "tea", "type": "com.cellhost.samples.rating", "set": {"title": "Tea", "count": 3, "tint": "systemTeal"}}}
        {"cell": "coffee", "selected": true}
        {"cell": "tea", "perform": {"rate": [2]}}
        {"cell": "coffee", "disabled": true}
        {"traits": {"style": "dark"}}
        """

    @Test func runDrawsTheSampleCellsAndTracesTheirChanges() throws {
        let plugin = try Self.samplePlugin.get()
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-rust-run")
        writeFile(Self.stream, to: dir + "/events.jsonl")
        let outcome = try Self.run(BuiltProducts.cellhost, ["run", "--plugin", plugin, "--events", dir + "/events.jsonl",
                                                            "--trace", dir + "/trace.jsonl", "--frames", dir + "/frames", "--quiet"],
                                   timeout: 120)
        #expect(outcome.status == 0, "\(outcome.error)")
        let text = try #require(readTextFile(dir + "/trace.jsonl"))
        let records = try text.split(separator: "\n").map { try TraceRecord.decode(line: String($0)) }
        let updates = records.flatMap { record -> [CellUpdateTrace] in
            if case .event(let event) = record { event.updates } else { [] }
        }
        #expect(Set(updates.map(\.cell)) == ["coffee", "tea"])
        #expect(updates.allSatisfy { $0.type == "com.cellhost.samples.rating" })
        // The action reached the plugin through libffi and changed the property it sets.
        let rated = try #require(updates.first { $0.cell == "tea" && $0.cause.contains("perform") })
        #expect(rated.changes.contains { $0.property == "rating" && $0.reason == .setByEvent && $0.new == "2" }, "\(rated.changes)")
        // An unlocked tint follows the state; the tint set by the stream by name is locked, and
        // re-resolved for dark mode (systemTeal has a dark variant) rather than restyled.
        let selected = try #require(updates.first { $0.cell == "coffee" && $0.stateAfter.contains("selected") })
        #expect(selected.changes.contains { $0.property == "tint" && $0.reason == .restyled })
        #expect(!updates.contains { $0.cell == "tea" && $0.changes.contains { $0.property == "tint" && $0.reason == .restyled } })
        let dark = try #require(updates.first { $0.cell == "tea" && $0.cause == "traits: dark" })
        #expect(dark.changes.contains { $0.property == "tint" && $0.reason == .reResolved && $0.cause == "dark" }, "\(dark.changes)")
        let frames = records.flatMap { record -> [String] in
            if case .event(let event) = record { event.frames.compactMap(\.file) } else { [] }
        }
        #expect(!frames.isEmpty && frames.allSatisfy { access(dir + "/frames/" + $0, R_OK) == 0 })
        if case .end(let end) = records.last { #expect(end.outcome == .ok) } else { Issue.record("no end record") }
    }
}
