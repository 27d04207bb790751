import CellProcess
import CellTestSupport
import Testing

/// `cellhost inspect` end to end: the tool loads the plugin in a child process, so every way a
/// plugin can misbehave while loading ends in a clear message and a non-zero status.
@Suite struct InspectCommandTests {
    struct Outcome {
        var status: WorkerTermination
        var output: String
        var error: String
    }

    func inspect(_ arguments: String...) throws -> Outcome { try inspect(arguments) }

    func inspect(_ arguments: [String]) throws -> Outcome {
        let tool = WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["inspect"] + arguments)
        let result = try tool.run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        return Outcome(status: result.termination, output: result.standardOutput, error: result.standardError)
    }

    /// Compiles a broken plugin; `body` is C after `#include "cellhost/plugin.h"`.
    func plugin(_ name: String, _ body: String) throws -> String {
        try PluginCompiler.compile(source: "#include \"cellhost/plugin.h\"\n#include <stdio.h>\n"
                                   + "#include <stdlib.h>\n#include <unistd.h>\n" + body, name: name)
    }

    static let entryPrefix = "CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void)"

    @Test func describesTheCSampleAsATable() throws {
        let outcome = try inspect(BuiltProducts.samplePlugin("ProgressMeter"))
        #expect(outcome.status == .exited(code: 0))
        #expect(outcome.output.contains("Plugin   com.cellhost.samples.meters  Progress meters 1.0.0 by cellhost samples"))
        #expect(outcome.output.contains("Type com.cellhost.samples.progress (Progress meter)"))
        #expect(outcome.output.contains("  tint             color              {Color=dddd}"))
        #expect(outcome.output.contains("  advance(by: double, animated: bool)  dB"))
    }

    @Test func describesTheSwiftSampleAsJSON() throws {
        let outcome = try inspect(BuiltProducts.samplePlugin("BadgeCell"), "--json")
        #expect(outcome.status == .exited(code: 0))
        #expect(outcome.output.hasPrefix("{\"schema\":\"cellhost.plugin/1\",\"ok\":true,"))
        #expect(outcome.output.contains("{\"name\":\"count\",\"encoding\":\"q\",\"type\":\"int\",\"cType\":\"int64_t\",\"readOnly\":false}"))
        #expect(outcome.output.contains("\"signature\":\"increment(by: int)\""))
    }

    @Test func refusalsExitWithStatus3AndTheLoadersSentence() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-inspect-test")
        writeFile("", to: "\(dir)/empty.so")
        writeFile("not elf", to: "\(dir)/text.so")
        let cases: [(String, String)] = [
            ("\(dir)/missing.so", "no such file"),
            (dir, "is a directory, not a plugin library"),
            ("\(dir)/empty.so", "is an empty file, not a plugin library"),
            ("\(dir)/text.so", "is not an ELF shared library (wrong magic bytes)"),
            (try plugin("unresolved", "extern int nowhere_to_be_found(void);\n"
                        + "CELLHOST_EXPORT int f(void) { return nowhere_to_be_found(); }"),
             "undefined symbol: nowhere_to_be_found"),
            (try plugin("noentry", "int unrelated = 1;"), "does not export the entry symbol cellhost_plugin_entry"),
            (try plugin("null", Self.entryPrefix + " { return NULL; }"), "cellhost_plugin_entry returned NULL"),
            (try plugin("garbage", "static const uint32_t junk[64] = { 1, 2, 3, 4 };\n" + Self.entryPrefix
                        + " { return (const cellhost_plugin_descriptor *)junk; }"),
             "did not return a plugin descriptor: the magic number is 0x3"),
        ]
        for (path, reason) in cases {
            let outcome = try inspect(path)
            #expect(outcome.status == .exited(code: 3), "\(path)")
            #expect(outcome.error.hasPrefix("cellhost inspect: \(path): "), "\(outcome.error)")
            #expect(outcome.error.contains(reason), "\(outcome.error)")
        }
        let json = try inspect("\(dir)/missing.so", "--json")
        #expect(json.output == "{\"schema\":\"cellhost.plugin/1\",\"ok\":false,\"path\":\"\(dir)/missing.so\","
                + "\"outcome\":\"refused\",\"error\":\"\(dir)/missing.so: no such file\"}\n")
        // The JSON report is the result; the error still goes to stderr, as for every subcommand.
        #expect(json.status == .exited(code: 3))
        #expect(json.error == "cellhost inspect: \(dir)/missing.so: no such file\n")
    }

    @Test func misbehaviourWhileLoadingExitsWithStatus4() throws {
        let constructor = "__attribute__((constructor)) static void on_load(void)"
        let cases: [(String, String, [String])] = [
            (try plugin("crash_ctor", constructor + " { *(volatile int *)0 = 1; }"), "crashed with SIGSEGV while loading", []),
            (try plugin("crash_entry", Self.entryPrefix + " { __builtin_trap(); }"),
             "crashed with SIGILL while loading", []),
            (try plugin("exit_ctor", constructor + " { exit(7); }"), "exited with status 7 while loading", []),
            (try plugin("exit_entry", Self.entryPrefix + " { _exit(0); }"), "exited with status 0 while loading", []),
            (try plugin("hang", constructor + " { for (;;) pause(); }"),
             "did not answer within 1 s and was stopped while loading", ["--timeout", "1"]),
            (try plugin("flood", constructor + " { for (;;) fputs(\"spam spam spam spam\\n\", stdout); }"),
             "flooded its output", []),
        ]
        for (path, reason, options) in cases {
            let outcome = try inspect([path] + options)
            #expect(outcome.status == .exited(code: 4), "\(path)")
            #expect(outcome.error.hasPrefix("cellhost inspect: \(path): the worker \(reason)")
                    || (reason == "flooded its output" && outcome.error.contains(reason)), "\(outcome.error)")
        }
    }

    /// `log` costs the same on the last of half a million messages as on the first: the load
    /// finishes well inside the load watchdog, where a cost growing with each message (as a
    /// handler rewrapped on every call made it) never finishes and overflows the stack.
    @Test func aPluginLoggingHalfAMillionMessagesWhileLoadingLoads() throws {
        let path = try PluginCompiler.compile(source: """
            #define REPLACE_INIT
            #include <stdio.h>
            #include "base.h"
            static bool init(const cellhost_host *h) {
                host = h;
                char text[32];
                for (int i = 0; i < 500000; i++) {
                    snprintf(text, sizeof text, "message %d", i);
                    host->log(CELLHOST_LOG_DEBUG, text);
                }
                return true;
            }
            #include "tables.h"
            """, name: "log_flood", extraFlags: "-I '\(ValidationFixtures.brokenPlugins)'")
        let outcome = try inspect(path)
        #expect(outcome.status == .exited(code: 0), "\(outcome.error)")
        #expect(outcome.output.contains("com.validation.test"))
    }
}
