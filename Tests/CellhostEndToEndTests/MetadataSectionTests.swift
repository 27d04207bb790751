import CellIO
import CellProcess
import CellTestSupport
import CellValidation
import Glibc
import Testing

/// `cellhost inspect PATH --no-load` and validate's `metadata-section` check, end to end: the
/// metadata section is read without the plugin's code running, says what the loaded plugin says,
/// and a plugin without it is named as such yet still loads.
@Suite struct MetadataSectionTests {
    struct Outcome {
        var status: WorkerTermination
        var output: String
        var error: String
    }

    func cellhost(_ arguments: [String]) throws -> Outcome {
        let tool = WorkerProcess(executable: BuiltProducts.cellhost, arguments: arguments)
        let result = try tool.run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        return Outcome(status: result.termination, output: result.standardOutput, error: result.standardError)
    }

    /// A fixture of BrokenPlugins (base.h and tables.h) with `defines` before them.
    func fixture(_ name: String, _ defines: String) throws -> String {
        try PluginCompiler.compile(source: defines + "\n#include \"base.h\"\n#include \"tables.h\"\n", name: name,
                                   extraFlags: "-I '\(ValidationFixtures.brokenPlugins)'")
    }

    @Test func theCSampleIsDescribedWithoutLoading() throws {
        let outcome = try cellhost(["inspect", BuiltProducts.samplePlugin("ProgressMeter"), "--no-load"])
        #expect(outcome.status == .exited(code: 0), "\(outcome.error)")
        #expect(outcome.output.contains("Plugin   com.cellhost.samples.meters  Progress meters 1.0.0 by cellhost samples\n"))
        #expect(outcome.output.contains("ABI      1.2  read from its .cellhost_metadata section; the plugin was not loaded\n"))
        #expect(outcome.output.contains("\nType com.cellhost.samples.progress\n"))
        #expect(!outcome.output.contains("PROPERTY"))
    }

    /// Where the two reports overlap they agree, member for member, for every sample.
    @Test(arguments: ["ProgressMeter", "BadgeCell", "RustRating"])
    func theSectionAgreesWithTheLoadedReport(sample: String) throws {
        let path = sample == "RustRating" ? try RustPluginTests.samplePlugin.get() : BuiltProducts.samplePlugin(sample)
        let fromSection = try cellhost(["inspect", path, "--no-load", "--json"])
        let loaded = try cellhost(["inspect", path, "--json"])
        #expect(fromSection.status == .exited(code: 0) && loaded.status == .exited(code: 0), "\(fromSection.error)\(loaded.error)")
        #expect(fromSection.output.hasPrefix("{\"schema\":\"cellhost.plugin/1\",\"ok\":true,\"source\":\"metadata\","))
        let section = try JSON.parse(fromSection.output), report = try JSON.parse(loaded.output)
        for key in ["path", "id", "name", "version", "vendor", "description", "abi"] {
            #expect(section[key] == report[key], "\(sample): \(key)")
        }
        #expect(section["types"]?.arrayValue?.map { $0["id"] } == report["types"]?.arrayValue?.map { $0["id"] })
        #expect(section["loadMicroseconds"] == nil)
    }

    /// The file's constructor writes a marker and aborts: loading it leaves the marker and
    /// crashes, reading its section does neither.
    @Test func noLoadRunsNoCodeOfTheFile() throws {
        let marker = "\(BuiltProducts.temporaryDirectory(prefix: "cellhost-no-load"))/constructor-ran"
        let path = try fixture("trapped_constructor", """
            #include <stdio.h>
            #include <stdlib.h>
            __attribute__((constructor)) static void trap(void) {
                FILE *f = fopen("\(marker)", "w");
                if (f) fclose(f);
                abort();
            }
            """)
        let noLoad = try cellhost(["inspect", path, "--no-load"])
        #expect(noLoad.status == .exited(code: 0), "\(noLoad.error)")
        #expect(noLoad.output.contains("Plugin   com.validation.test  Validation test plugin 1.0.0 by cellhost tests"))
        #expect(access(marker, F_OK) != 0, "--no-load ran the plugin's constructor")

        // Loading it does run the constructor (the worker's sandbox would refuse the marker's
        // write, so the proof runs without it), or the test above would prove nothing.
        let out = BuiltProducts.temporaryDirectory(prefix: "cellhost-no-load-run")
        let loaded = try cellhost(["run", "--plugin", path, "--no-sandbox", "--out", out, "--quiet"])
        #expect(loaded.status != .exited(code: 0), "\(loaded.error)")
        #expect(access(marker, F_OK) == 0, "loading must run the constructor: \(loaded.error)")
    }

    @Test func aPluginWithoutTheSectionIsNamedAndStillLoads() throws {
        let path = try fixture("older_sdk", "#define OMIT_METADATA")
        let noLoad = try cellhost(["inspect", path, "--no-load"])
        #expect(noLoad.status == .exited(code: 3))
        #expect(noLoad.output.isEmpty)
        #expect(noLoad.error.hasPrefix("cellhost inspect: \(path): has no .cellhost_metadata section"), "\(noLoad.error)")
        let json = try cellhost(["inspect", path, "--no-load", "--json"])
        #expect(json.status == .exited(code: 3))
        #expect(try JSON.parse(json.output)["outcome"] == .string("noMetadata"))

        let loaded = try cellhost(["inspect", path])
        #expect(loaded.status == .exited(code: 0), "\(loaded.error)")
        let report = Validator(executable: BuiltProducts.cellhost, timeout: 20, seed: 1,
                               checks: [ValidationCheck.named("metadata-section")!]).run(path: path)
        #expect(report.results.map(\.outcome) == [.warning])
        #expect(!report.hasProblems)
        #expect(report.results.first?.details.first?.hasPrefix("no .cellhost_metadata section") == true)
    }

    @Test func aSectionThatDisagreesFailsValidationNamingBothValues() throws {
        let path = try ValidationFixtures.build("mismatched_metadata")
        let report = Validator(executable: BuiltProducts.cellhost, timeout: 20, seed: 1,
                               checks: [ValidationCheck.named("metadata-section")!]).run(path: path)
        #expect(report.results.map(\.outcome) == [.failed])
        #expect(report.results.first?.details == [
            "the metadata section's version is \"9.9.9\", but the loaded plugin's descriptor says \"1.0.0\"",
        ])
    }

    @Test func filesThatAreNotPluginsAreRefusedWithStatus3() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-no-load")
        writeFile("not elf at all", to: "\(dir)/text.so")
        for (path, problem) in [("\(dir)/text.so", "is not an ELF file (wrong magic bytes)"),
                                ("\(dir)/missing.so", "no such file"),
                                (dir, "is a directory, not a plugin library")] {
            let outcome = try cellhost(["inspect", path, "--no-load"])
            #expect(outcome.status == .exited(code: 3))
            #expect(outcome.error == "cellhost inspect: \(path): \(problem)\n", "\(outcome.error)")
        }
        // A bare name is a file in the current folder, as the loader reads it.
        let bare = try WorkerProcess(executable: "/usr/bin/env", arguments: ["-C", dir, BuiltProducts.cellhost, "inspect", "nothere.so", "--no-load"])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(bare.termination == .exited(code: 3))
        #expect(bare.standardError == "cellhost inspect: nothere.so: no such file in the current folder, \(dir)\n")
    }
}

extension MetadataSectionTests {
    /// `cellhost new` writes the section in every language, and it agrees with the descriptor.
    @Test(arguments: PluginProject.Language.allCases)
    func newProjectsDeclareTheirMetadata(_ language: PluginProject.Language) throws {
        let built = try #require(try NewCommandTests.built[language]?.get())
        let noLoad = try cellhost(["inspect", built.library, "--no-load"])
        #expect(noLoad.status == .exited(code: 0), "\(noLoad.error)")
        #expect(noLoad.output.contains("0.1.0 by Example"), "\(noLoad.output)")
        let report = Validator(executable: BuiltProducts.cellhost, timeout: 20, seed: 1,
                               checks: [ValidationCheck.named("metadata-section")!]).run(path: built.library)
        #expect(report.results.map(\.outcome) == [.success], "\(report.results.map(ValidationReport.line(for:)))")
    }
}
