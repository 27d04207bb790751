import CellIO
import CellProcess
import CellValidation
import Glibc
import CellTestSupport
import Testing

/// The built `cellhost` as a script sees it: one table of exit codes whichever subcommand ran,
/// results on stdout, errors on stderr, `--quiet` printing nothing but errors, and `--version`.
/// The codes are written out as numbers: they are the documented contract, not an implementation
/// detail a test may follow.
@Suite struct CommandLineTests {
    struct Outcome {
        var status: Int32?
        var output: String
        var error: String
    }

    func cellhost(_ arguments: [String]) throws -> Outcome {
        let result = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: arguments)
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        guard case .exited(let code) = result.termination else {
            return Outcome(status: nil, output: result.standardOutput, error: "\(result.termination): \(result.standardError)")
        }
        return Outcome(status: code, output: result.standardOutput, error: result.standardError)
    }

    /// A scene of one built-in cell and one event: the shortest stream that runs the engine.
    func smallStream() -> String {
        let path = ValidationFixtures.temporaryDirectory() + "/events.jsonl"
        let text = """
            {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 120}, "scale": 1}}
            {"section": {"id": "fruit"}}
            {"item": {"id": "apple", "set": {"text": "Apple"}}}
            {"cell": "apple", "selected": true}

            """
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
        return path
    }

    @Test func versionPrintsTheLibrarysVersionOnStdout() throws {
        let outcome = try cellhost(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.output == CellhostVersion.description + "\n")
        #expect(outcome.output.hasPrefix(CellhostVersion.number + " (plugin ABI "))
        #expect(outcome.error.isEmpty)
    }

    @Test func theSameMissingPluginFileIsExitCode3FromEverySubcommand() throws {
        let missing = ValidationFixtures.temporaryDirectory() + "/missing.so"
        let invocations = [["inspect", missing], ["validate", missing], ["run", "--plugin", missing, "--events", smallStream()]]
        for arguments in invocations {
            let outcome = try cellhost(arguments + ["--quiet"])
            #expect(outcome.status == 3, "\(arguments): \(outcome.error)")
            #expect(outcome.output.isEmpty, "\(arguments) printed on stdout under --quiet: \(outcome.output)")
            #expect(outcome.error.hasPrefix("cellhost \(arguments[0]): "), "\(outcome.error)")
            #expect(outcome.error.contains("\(missing): no such file"), "\(outcome.error)")
        }
    }

    @Test func aPluginTheLoaderRefusesIsExitCode3FromInspectAndValidate() throws {
        let plugin = try ValidationFixtures.build("missing_entry")
        for subcommand in ["inspect", "validate"] {
            let outcome = try cellhost([subcommand, plugin])
            #expect(outcome.status == 3, "\(subcommand): \(outcome.error)")
            #expect(outcome.error == "cellhost \(subcommand): \(plugin): does not export the entry symbol cellhost_plugin_entry\n")
        }
    }

    @Test func validateExitsWith6WhenALoadedPluginFailsACheck() throws {
        let plugin = try ValidationFixtures.build("lost_setter")
        let outcome = try cellhost(["validate", plugin, "--check", "property-roundtrip", "--seed", "1"])
        #expect(outcome.status == 6, "\(outcome.output)\(outcome.error)")
        #expect(outcome.output.contains("[FAILED]"), "the report stays on stdout: \(outcome.output)")
        #expect(outcome.error == "cellhost validate: \(plugin): 1 of 1 checks failed or crashed\n")
    }

    @Test func quietLeavesStdoutAndStderrEmptyOnSuccess() throws {
        let sample = BuiltProducts.samplePlugin("ProgressMeter")
        let directory = ValidationFixtures.temporaryDirectory()
        let invocations = [
            ["inspect", sample],
            ["inspect", sample, "--json"],
            ["validate", sample, "--check", "descriptor", "--check", "property-roundtrip", "--seed", "1"],
            ["run", "--plugin", sample, "--events", smallStream(), "--out", directory + "/out"],
        ]
        for arguments in invocations {
            let loud = try cellhost(arguments)
            #expect(loud.status == 0, "\(arguments): \(loud.error)")
            #expect(!loud.output.isEmpty, "\(arguments) printed no result without --quiet")
            let quiet = try cellhost(arguments + ["--quiet"])
            #expect(quiet.status == 0, "\(arguments): \(quiet.error)")
            #expect(quiet.output.isEmpty, "\(arguments) --quiet printed \(quiet.output)")
            #expect(quiet.error.isEmpty, "\(arguments) --quiet printed on stderr: \(quiet.error)")
        }
        // Quiet silences the terminal, not the files asked for.
        #expect(readTextFile(directory + "/out/trace.jsonl")?.isEmpty == false)
    }

    @Test func errorsGoToStderrWithTheirTablesCode() throws {
        let stream = smallStream()
        let bad = stream + ".bad"
        let file = fopen(bad, "w")!
        fputs((readTextFile(stream) ?? "") + "{\"cell\": \"apple\", \"selcted\": true}\n", file)
        fclose(file)
        let badInput = try cellhost(["run", "--events", bad, "--plugin", BuiltProducts.samplePlugin("ProgressMeter")])
        #expect(badInput.status == 1)
        #expect(badInput.error.hasPrefix("cellhost run: \(bad):5: "), "\(badInput.error)")
        #expect(!badInput.output.contains("cellhost run:"), "the error is not on stdout")

        for arguments in [["run"], ["inspect", "x.so"], ["validate", "x.so"]] {
            let subcommand = arguments[0]
            let usage = try cellhost(arguments + ["--timeout", "0"])
            #expect(usage.status == 2, "\(subcommand): \(usage.error)")
            #expect(usage.output.isEmpty)
            #expect(usage.error.contains("--timeout must be a positive number of seconds"), "\(usage.error)")
        }

        let unwritable = try cellhost(["run", "--events", stream, "--plugin", BuiltProducts.samplePlugin("ProgressMeter"),
                                       "--trace", "/proc/no-such-directory/trace.jsonl", "--quiet"])
        #expect(unwritable.status == 5, "\(unwritable.error)")
        #expect(unwritable.error.hasPrefix("cellhost run: "))
        #expect(unwritable.output.isEmpty)
    }

    @Test func everySubcommandsHelpShowsTheOneExitCodeTable() throws {
        var tables: [String] = []
        for subcommand in ["run", "inspect", "validate", "sdk", "test"] {
            let help = try cellhost([subcommand, "--help"])
            #expect(help.status == 0)
            let start = try #require(help.output.range(of: "Exit codes (the same for every subcommand):"),
                                     "\(subcommand) --help has no exit-code table")
            let rest = help.output[start.lowerBound...]
            tables.append(String(rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]))
            for code in Array(0...8) + [130] { #expect(help.output.contains("\n  \(code)  "), "\(subcommand) --help lacks code \(code)") }
        }
        #expect(Set(tables).count == 1, "the subcommands document different tables: \(tables)")

        // README.md's Commands section shows the same table, row for row.
        let readme = try #require(readTextFile(BuiltProducts.packageRoot + "/README.md"))
        let rows = try #require(tables.first).split(separator: "\n").dropFirst()
        #expect(rows.count == 10)
        for row in rows {
            let code = row.dropFirst(2).prefix { $0 != " " }
            let meaning = row.dropFirst(2 + code.count + 2)
            #expect(readme.contains("\n| \(code) | \(meaning) |\n"), "README.md lacks: \(row)")
        }
    }
}
