import CellProcess
import CellTestSupport
import Glibc
import Testing

/// `cellhost inspect libfoo.so` in the plugin's folder means that file, for `inspect`,
/// `validate` and `run --plugin` alike (dlopen alone would search the library path for it), and
/// a bare name that is not there is one sentence naming the folder, exit code 3, from each.
@Suite struct BarePluginPathTests {
    /// Runs the built `cellhost` with `arguments` from inside `directory`.
    func cellhost(_ arguments: String, in directory: String) throws -> Shell.Outcome {
        try Shell.run("exec '\(BuiltProducts.cellhost)' \(arguments)", in: directory)
    }

    /// A folder holding the C sample as libmeter.so (on no library path) and a one-event stream.
    func pluginFolder() -> String {
        let directory = BuiltProducts.temporaryDirectory(prefix: "cellhost-bare-path")
        #expect(system("cp '\(BuiltProducts.samplePlugin("ProgressMeter"))' '\(directory)/libmeter.so'") == 0)
        writeFile("""
            {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 120}, "scale": 1}}
            {"section": {"id": "meters"}}
            {"item": {"id": "download", "type": "com.cellhost.samples.progress", "set": {"progress": 0.5}}}
            {"cell": "download", "selected": true}

            """, to: "\(directory)/events.jsonl")
        return directory
    }

    static let commands = ["inspect", "validate", "run --events events.jsonl --plugin"]

    @Test(arguments: commands)
    func aBareNameIsTheFileInTheCurrentFolder(_ command: String) throws {
        let folder = pluginFolder()
        let outcome = try cellhost("\(command) libmeter.so --quiet", in: folder)
        #expect(outcome.status == 0, "\(command): \(outcome.error)")
        #expect(outcome.error.isEmpty, "\(command): \(outcome.error)")
    }

    @Test(arguments: commands)
    func aMissingBareNameIsOneSentenceAndExitCode3(_ command: String) throws {
        let folder = pluginFolder()
        let outcome = try cellhost("\(command) nothere.so --quiet", in: folder)
        let subcommand = command.split(separator: " ")[0]
        #expect(outcome.status == 3, "\(command): \(outcome.error)")
        #expect(outcome.error == "cellhost \(subcommand): nothere.so: no such file in the current folder, \(folder)\n")
    }
}
