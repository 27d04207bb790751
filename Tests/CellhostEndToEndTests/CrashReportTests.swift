import CellIO
import CellProcess
import CellTestSupport
import Glibc
import Testing

/// What a plugin's author reads when the worker dies: the phase it died in (loading, an item's
/// `set`, event N), the plugin's own last words before the backtrace, the backtrace frame inside
/// the plugin, and for an AddressSanitizer build how to run it — worded alike by `run`,
/// `inspect` and `validate`.
@Suite struct CrashReportTests {
    static let scene = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "s", "header": "Cells"}}
        {"item": {"id": "a", "type": "com.validation.test.cell", "set": {"value": 0.5}}}
        {"item": {"id": "b", "type": "com.validation.test.cell", "set": {"count": 3, "title": "Hello"}}}
        {"cell": "a", "highlighted": true}
        {"cell": "a", "set": {"count": 13}}

        """

    func cellhost(_ arguments: [String], environment: [String: String] = [:]) throws -> WorkerResult {
        try WorkerProcess(executable: BuiltProducts.cellhost, arguments: arguments, environment: environment)
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
    }

    /// Runs the scene above with `plugin`; returns cellhost's stderr and the JSONL trace's end message.
    func run(_ plugin: String) throws -> (error: String, endMessage: String?) {
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(Self.scene, to: "\(dir)/events.jsonl")
        let result = try cellhost(["run", "--plugin", plugin, "--events", "\(dir)/events.jsonl",
                                   "--trace", "\(dir)/trace.jsonl", "--quiet"])
        #expect(result.termination == .exited(code: 4), "\(result.standardError)")
        let last = (readTextFile("\(dir)/trace.jsonl") ?? "").split(separator: "\n").last.map(String.init) ?? ""
        return (result.standardError, try JSON.parse(last)["message"]?.stringValue)
    }

    /// The backtracer's own lines never reach the report.
    func expectNoBacktracerNoise(_ text: String) {
        for noise in ["Backtrace took", "Images (", "Registers:", "Program crashed", "0x0000"] {
            #expect(!text.contains(noise), "\(noise) in: \(text)")
        }
    }

    @Test func aBadFreeOnAnItemsFirstSetNamesTheItemAndPropertyThenLibcsLine() throws {
        let (error, endMessage) = try run(ValidationFixtures.build("bad_free_title"))
        let lines = error.split(separator: "\n")
        #expect(lines.first?.contains(#"the worker crashed with SIGABRT while applying item "b"'s set of "title" ("#) == true, "\(error)")
        #expect(lines.dropFirst().first == "  free(): invalid pointer", "the plugin's last words come first: \(error)")
        expectNoBacktracerNoise(error)
        #expect(endMessage.map { error.contains($0) } == true, "the trace's end record says the same: \(endMessage ?? "none")")
    }

    @Test func aCrashInAnEventNamesTheEventAndTheFrameInsideThePlugin() throws {
        let (error, _) = try run(ValidationFixtures.build("crash_on_count"))
        #expect(error.contains("the worker crashed with SIGSEGV at event #2 ("), "\(error)")
        #expect(error.contains("a: count=13"), "the event's summary: \(error)")
        #expect(error.contains("in the plugin: set_count + "), "\(error)")
        expectNoBacktracerNoise(error)
    }

    @Test func aCrashWhileLoadingNamesLoadingInEveryCommand() throws {
        let plugin = try ValidationFixtures.build("crash_in_init")
        let (error, _) = try run(plugin)
        #expect(error.contains("the worker crashed with SIGSEGV while loading \(plugin)\n  crash_in_init: about to fail\n"
                               + "  in the plugin: init + "), "\(error)")
        let inspect = try cellhost(["inspect", plugin])
        #expect(inspect.standardError.hasPrefix("cellhost inspect: \(plugin): the worker crashed with SIGSEGV while loading\n"
                                                + "  crash_in_init: about to fail\n  in the plugin: init + "),
                "\(inspect.standardError)")
        let validate = try cellhost(["validate", plugin])
        #expect(validate.standardOutput.contains("the worker crashed with SIGSEGV during: loading \(plugin)\n"),
                "\(validate.standardOutput)")
        expectNoBacktracerNoise(error + inspect.standardError + validate.standardOutput)
    }

    @Test func anAddressSanitizerPluginGetsTheCommandThatRunsIt() throws {
        let plugin = try ValidationFixtures.build("good", flags: "-fsanitize=address")
        let (error, _) = try run(plugin)
        let advice = "the plugin was built with AddressSanitizer, whose runtime must be loaded first: run "
            + "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(cc -print-file-name=libasan.so) cellhost"
        #expect(error.contains(advice + " run --in-process …"), "\(error)")
        #expect(!error.contains("exit"), "\(error)")
        let inspect = try cellhost(["inspect", plugin])
        #expect(inspect.standardError == "cellhost inspect: \(plugin): \(advice) inspect \(plugin)\n")

        // The advice works: the same command, with this build's cellhost, runs the stream.
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(Self.scene, to: "\(dir)/events.jsonl")
        let command = "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(cc -print-file-name=libasan.so) '\(BuiltProducts.cellhost)' "
            + "run --in-process --plugin '\(plugin)' --events '\(dir)/events.jsonl' --quiet 2>'\(dir)/stderr'"
        #expect(system(command) == 0, "\(readTextFile("\(dir)/stderr") ?? "")")
    }

    /// clang's AddressSanitizer runtime is not linked into the plugin, so the plugin does not even
    /// load: the loader's refusal says which runtime to preload, and that command works.
    @Test func aClangAddressSanitizerPluginIsToldWhichRuntimeToPreload() throws {
        let plugin = try ValidationFixtures.build("good", flags: "-fsanitize=address", compiler: "clang")
        let inspect = try cellhost(["inspect", plugin])
        #expect(inspect.termination == .exited(code: 3))
        #expect(inspect.standardError.contains("built with clang's AddressSanitizer, whose runtime must be loaded first: run "
                                               + "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(clang -print-file-name=libclang_rt.asan-x86_64.so)"),
                "\(inspect.standardError)")
        let command = "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(clang -print-file-name=libclang_rt.asan-x86_64.so) "
            + "'\(BuiltProducts.cellhost)' inspect '\(plugin)' >/dev/null 2>&1"
        #expect(system(command) == 0)
    }
}
