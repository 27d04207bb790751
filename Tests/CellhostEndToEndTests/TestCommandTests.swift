import CellIO
import CellProcess
import CellRender
import CellTestSupport
import Glibc
import Testing

/// `cellhost test` as a plugin author's CI runs it: the built tool, a plugin built from source,
/// references recorded, then a change to the plugin caught with its diff files and exit status.
@Suite struct TestCommandTests {
    static let stream = """
        {"scene": {"viewport": {"width": 320, "height": 200}, "scale": 1}}
        {"item": {"id": "upload", "type": "com.cellhost.samples.progress", "set": {"title": "Upload", "progress": 0.5}}}
        {"cell": "upload", "selected": true}
        {"capture": {"name": "upload-selected", "cell": "upload"}}

        """

    func cellhost(_ arguments: [String], in directory: String) throws -> (status: Int32?, error: String) {
        let result = try Shell.run("cellhost " + arguments.map { "'\($0)'" }.joined(separator: " "), in: directory, seconds: 120)
        return (result.status, result.error + result.output)
    }

    /// The C sample plugin's source with `edit` applied, built into `directory`.
    func progressMeter(into directory: String, edit: (String) -> String = { $0 }) throws -> String {
        let original = try #require(readTextFile(BuiltProducts.packageRoot + "/Plugins/ProgressMeter/progress_meter.c"))
        let edited = edit(original)
        writeFile(edited, to: directory + "/progress_meter.c")
        return try PluginCompiler.compile(file: directory + "/progress_meter.c", name: "libProgressMeter", into: directory)
    }

    @Test func aChangedColourFailsWithItsDiffFilesAndExitStatus() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-test-command")
        writeFile(Self.stream, to: dir + "/meter.jsonl")
        let originalDir = BuiltProducts.temporaryDirectory(prefix: "cellhost-meter-original")
        let original = try progressMeter(into: originalDir)

        let record = try cellhost(["test", "meter.jsonl", "--plugin", original], in: dir)
        #expect(record.status == 8, "recording fails the run: \(record.error)")
        #expect(record.error.contains("no reference was found: recorded one"), "\(record.error)")
        let references = dir + "/__Snapshots__/meter"
        #expect(access(references + "/upload-selected.png", F_OK) == 0)

        let same = try cellhost(["test", "meter.jsonl", "--plugin", original, "--record", "never"], in: dir)
        #expect(same.status == 0, "\(same.error)")

        // The author changes the selected tint from green to red.
        let changedDir = BuiltProducts.temporaryDirectory(prefix: "cellhost-meter-changed")
        let changed = try progressMeter(into: changedDir) { source in
            source.replacingFirst(#"name = "systemGreen";"#, with: #"name = "systemRed";"#)
        }
        let failed = try cellhost(["test", "meter.jsonl", "--plugin", changed, "--record", "never", "--junit", "junit.xml"], in: dir)
        #expect(failed.status == 8, "\(failed.error)")
        let files = ["upload-selected.actual.png", "upload-selected.diff.png", "upload-selected.trace.diff"].map { references + "/" + $0 }
        for file in files {
            #expect(access(file, F_OK) == 0, "\(file)")
            #expect(failed.error.contains("__Snapshots__/meter/" + file.split(separator: "/").last!), "the summary names \(file): \(failed.error)")
        }
        #expect(failed.error.contains("FAILED meter.jsonl upload-selected: does not match the reference (image: "), "\(failed.error)")
        let traceDiff = readTextFile(files[2]) ?? ""
        #expect(traceDiff.contains("\n-{\"cell\":\"upload\",\"property\":\"content.tint\""), "\(traceDiff)")
        #expect(traceDiff.contains("\n+{\"cell\":\"upload\",\"property\":\"content.tint\""), "\(traceDiff)")

        // The diff marks the bar's pixels (green → red) and leaves the title unmarked.
        let diff = try RasterImage.decodePNG(path: files[1])
        let expected = try RasterImage.decodePNG(path: references + "/upload-selected.png")
        let actual = try RasterImage.decodePNG(path: files[0])
        var marked = 0, changedPixels = 0
        for y in 0..<diff.height {
            for x in 0..<diff.width {
                if diff[x, y] == 0xFF_FF_00_FF { marked += 1 }
                if expected[x, y] != actual[x, y] { changedPixels += 1 }
            }
        }
        #expect(marked == changedPixels && marked > 100, "marked \(marked) of \(changedPixels) changed pixels")

        let junit = readTextFile(dir + "/junit.xml") ?? ""
        #expect(junit.contains("<testcase classname=\"meter.jsonl\" name=\"upload-selected\">\n      <failure message=\"does not match"), "\(junit)")

        // Putting the plugin back passes and removes the files.
        let back = try cellhost(["test", "meter.jsonl", "--plugin", original, "--record", "never"], in: dir)
        #expect(back.status == 0, "\(back.error)")
        for file in files { #expect(access(file, F_OK) != 0, "\(file) left behind") }
    }

    @Test func aPluginCrashFailsItsStreamOnlyAndTheOthersRun() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-test-crash")
        writeFile("""
            {"item": {"id": "a", "type": "com.validation.test.cell", "set": {"value": 0.5}}}
            {"capture": "before"}
            {"cell": "a", "set": {"count": 13}}
            {"capture": "after"}

            """, to: dir + "/crashing.jsonl")
        writeFile("""
            {"item": {"id": "a", "set": {"text": "Built-in"}}}
            {"capture": "list"}

            """, to: dir + "/plain.jsonl")
        let crash = try ValidationFixtures.build("crash_on_count")
        let result = try cellhost(["test", ".", "--plugin", crash], in: dir)
        #expect(result.status == 8)
        #expect(result.error.contains("FAILED ./crashing.jsonl before: the worker crashed with SIGSEGV at event #2"), "\(result.error)")
        #expect(result.error.contains("recorded ./plain.jsonl list"), "\(result.error)")
        #expect(access(dir + "/__Snapshots__/plain/list.png", F_OK) == 0)
    }

    @Test(arguments: [(["--shard", "3/2"], "--shard 3/2: I must be 1…2"), (["--shard", "x"], "--shard takes I/N"),
                      (["--record", "sometimes"], "--record takes missing, all, failed, never")])
    func badArgumentsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-test-usage")
        let result = try cellhost(["test"] + arguments, in: dir)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func noStreamsIsBadInput() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-test-empty")
        let result = try cellhost(["test"], in: dir)
        #expect(result.status == 1)
        #expect(result.error.contains("no streams to test: Tests/cellhost/ does not exist"), "\(result.error)")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
