import CellIO
import CellProcess
import CellTestSupport
import Glibc
import Testing

/// Hostile plugins (HostilePlugins/hostile.c, one attack per build) against the worker sandbox:
/// each attack is refused and reported with the event it came at, or has no effect, and the run
/// ends with the plugin-fault exit code and complete traces. Every test fails when the
/// protection it names is removed.
@Suite struct SandboxTests {
    static let hostile = "\(BuiltProducts.packageRoot)/Tests/CellhostEndToEndTests/HostilePlugins/hostile.c"
    /// Item "b" is set to count 13 by event #2; item "b"'s first count (3) is set while the scene is checked.
    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "s", "header": "Cells"}}
        {"item": {"id": "a", "type": "com.validation.test.cell", "set": {"value": 0.5}}}
        {"item": {"id": "b", "type": "com.validation.test.cell", "set": {"count": 3, "title": "Hello"}}}
        {"cell": "a", "highlighted": true}
        {"cell": "b", "set": {"count": 13}}
        {"cell": "a", "highlighted": false}

        """

    static func build(_ attack: String, target: String? = nil, inInit: Bool = false, flags: String = "") throws -> String {
        let dir = ValidationFixtures.temporaryDirectory()
        let define = (target.map { " -DTARGET='\"\($0)\"'" } ?? "") + (inInit ? " -DIN_INIT" : "") + " " + flags
        return try PluginCompiler.compile(file: hostile, name: "hostile_\(attack.lowercased())", into: dir,
                                          extraFlags: "-I '\(ValidationFixtures.brokenPlugins)' -DATTACK_\(attack)\(define)")
    }

    struct Run {
        var result: WorkerResult
        var directory: String
        var out: String { directory + "/out" }
        var endRecord: JSON? {
            (readTextFile(out + "/trace.jsonl") ?? "").split(separator: "\n").last.flatMap { try? JSON.parse(String($0)) }
        }
    }

    static func run(_ plugin: String, _ extra: [String] = [], in dir: String = ValidationFixtures.temporaryDirectory(),
                    environment: [String: String] = [:]) throws -> Run {
        writeFile(stream, to: "\(dir)/events.jsonl")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--plugin", plugin, "--events", "\(dir)/events.jsonl",
                                                   "--out", "\(dir)/out", "--quiet"] + extra,
                                       environment: environment)
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        return Run(result: result, directory: dir)
    }

    /// The run ended as a plugin fault (exit 4) naming `attempt` and the event, with whole traces.
    func expectRefused(_ run: Run, _ attempt: String, at place: String = "at event #2 (") {
        #expect(run.result.termination == .exited(code: 4), "\(run.result.termination): \(run.result.standardError)")
        #expect(run.result.standardError.contains("the worker was stopped because \(attempt) \(place)"), "\(run.result.standardError)")
        #expect(run.endRecord?["outcome"]?.stringValue == "pluginCrashed", "the trace ends with the fault")
        let leftovers = (directoryEntries(run.out) ?? []).filter { $0.contains(".tmp") || $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "partial files left: \(leftovers)")
    }

    @Test func aPluginThatKillsItsSupervisorIsRefusedAndReported() throws {
        let run = try Self.run(Self.build("KILL_PARENT"))
        expectRefused(run, "the plugin tried to signal another process")
    }

    @Test func aPluginThatOpensASocketIsRefusedAndReported() throws {
        expectRefused(try Self.run(Self.build("SOCKET")), "the plugin tried to open a network socket")
    }

    @Test func aPluginThatTracesItsSupervisorIsRefusedAndReported() throws {
        expectRefused(try Self.run(Self.build("PTRACE")), "the plugin tried to trace another process")
    }

    @Test func aPluginThatLeavesItsProcessGroupIsRefusedAndReported() throws {
        expectRefused(try Self.run(Self.build("SETSID")), "the plugin tried to leave its process group")
    }

    @Test func aPluginThatForksADaemonIsRefusedAndLeavesNoProcess() throws {
        let mark = ValidationFixtures.temporaryDirectory() + "/daemon-was-here"
        let run = try Self.run(Self.build("FORK", target: mark))
        expectRefused(run, "the plugin tried to start a process")
        usleep(1_500_000)  // The daemon would have left its mark after a second.
        #expect(access(mark, F_OK) != 0, "a forked process outlived the run")
    }

    /// Belt and braces for the fork ban: without the sandbox, a child the plugin left in the
    /// worker's process group is killed with the group when the worker ends.
    @Test func whatTheWorkerStartedEndsWithIt() throws {
        let mark = ValidationFixtures.temporaryDirectory() + "/child-was-here"
        let run = try Self.run(Self.build("FORK", target: mark, flags: "-DKEEP_GROUP"), ["--no-sandbox"])
        #expect(run.result.termination == .exited(code: 0), "\(run.result.standardError)")
        usleep(1_500_000)
        #expect(access(mark, F_OK) != 0, "the plugin's child outlived the run")
    }

    @Test func aMemoryLimitThatIsNotOneIsAUsageError() throws {
        let run = try Self.run(Self.build("SOCKET"), ["--memory-limit", "lots"])
        #expect(run.result.termination == .exited(code: 2))
        #expect(run.result.standardError.contains("--memory-limit must be a number of bytes"), "\(run.result.standardError)")
    }

    /// Execution is limited to the runtime's crash backtracer: the shell never runs, and the
    /// attempt ends the run, named with its path.
    @Test func aPluginThatExecutesAProgramIsRefusedAndReported() throws {
        let mark = ValidationFixtures.temporaryDirectory() + "/shell-was-here"
        let run = try Self.run(Self.build("EXECVE", target: mark))
        #expect(access(mark, F_OK) != 0, "the plugin ran a shell")
        expectRefused(run, "the plugin tried to run /bin/sh")
    }

    @Test func aPluginThatWritesOutsideTheOutputFolderIsRefusedAndReported() throws {
        let outside = WorkerSandbox.absolute(ValidationFixtures.temporaryDirectory()) + "/escaped.txt"
        let run = try Self.run(Self.build("WRITE_FILE", target: outside))
        #expect(access(outside, F_OK) != 0, "the plugin wrote \(outside)")
        expectRefused(run, "the plugin tried to write \(outside)")
    }

    @Test func aPluginThatRemovesAFileOutsideTheOutputFolderIsRefusedAndReported() throws {
        let outside = WorkerSandbox.absolute(ValidationFixtures.temporaryDirectory()) + "/keep.txt"
        let file = try #require(fopen(outside, "w"))
        fputs("kept\n", file)
        fclose(file)
        let run = try Self.run(Self.build("REMOVE_FILE", target: outside))
        #expect(readTextFile(outside) == "kept\n", "the plugin removed \(outside)")
        expectRefused(run, "the plugin tried to remove \(outside)")
    }

    /// Writing inside the output folder is no attempt to escape: the run goes on, with its frames.
    @Test func aPluginMayWriteIntoTheOutputFolder() throws {
        let dir = ValidationFixtures.temporaryDirectory()
        let note = "\(dir)/out/frames/plugin-note.txt"
        let run = try Self.run(Self.build("WRITE_FILE", target: note), in: dir)
        #expect(run.result.termination == .exited(code: 0), "\(run.result.standardError)")
        #expect(readTextFile(note) == "escaped\n", "the plugin's file inside the output folder was written")
        #expect((directoryEntries(run.out + "/frames") ?? []).contains("frame-0001.png"), "the frames were written")
    }

    /// The host's own writes after the sandbox is entered (frames, fontconfig) are never taken
    /// for the plugin's: the default stream's run, frames and all, asks the supervisor about none.
    @Test func framesAreWrittenWithoutAskingTheSupervisor() throws {
        let dir = ValidationFixtures.temporaryDirectory()
        let sandboxed = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["run", "--out", "\(dir)/out", "--quiet"],
                                          environment: ["CELLHOST_DEBUG_NOTIFICATIONS": "1"])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(sandboxed.termination == .exited(code: 0), "\(sandboxed.standardError)")
        #expect((directoryEntries("\(dir)/out/frames") ?? []).count > 1, "the run wrote frames")
        #expect(!sandboxed.standardError.contains("cellhost: notified"), "\(sandboxed.standardError)")
    }

    /// Paths are resolved before the plugin runs: its `chdir("/")` in init moves neither the
    /// stream nor the frames nor the traces.
    @Test func aPluginThatChangesDirectoryChangesNoPath() throws {
        let plugin = try Self.build("CHDIR")
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(Self.stream, to: "\(dir)/events.jsonl")
        let outcome = try Shell.run("'\(BuiltProducts.cellhost)' run --plugin '\(plugin)' --events events.jsonl --out out --quiet",
                                in: dir, seconds: 60)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect((directoryEntries("\(dir)/out/frames") ?? []).contains("frame-0001.png"), "frames went elsewhere")
        #expect(access("\(dir)/out/trace.jsonl", F_OK) == 0)
    }

    /// 1 GB every time a count is set: the first fits in the default 2 GB limit, the second
    /// (item b's count applied again for the first display) does not.
    @Test func aPluginThatAllocatesWithoutEndMeetsTheMemoryLimit() throws {
        let run = try Self.run(Self.build("ALLOCATE"))
        expectRefused(run, "it exceeded the memory limit of 2 GB", at: "during the first display")
        let limited = try Self.run(Self.build("ALLOCATE"), ["--memory-limit", "512M"])
        expectRefused(limited, "it exceeded the memory limit of 512 MB", at: "while applying item \"b\"'s set of \"count\"")
    }

    @Test func noSandboxSaysSoAndLetsThePluginOpenItsSocket() throws {
        let run = try Self.run(Self.build("SOCKET"), ["--no-sandbox"])
        #expect(run.result.termination == .exited(code: 0), "\(run.result.standardError)")
        #expect(run.result.standardError.hasPrefix("cellhost run: --no-sandbox: plugins run in the worker without its sandbox"))
    }

    // MARK: Kernels without a feature (CELLHOST_TEST_KERNEL_WITHOUT makes this kernel one)

    /// An attack of each kind a feature guards, run as on a kernel without `feature`: the shell
    /// plugin's mark and the file written outside, each absent afterwards, and the runs' stderr.
    struct WithoutFeature {
        var execute: Run, write: Run
        var shellMark: String, outside: String
        var notices: [String] { [execute, write].map(\.result.standardError) }
    }

    static func attacks(onAKernelWithout feature: String) throws -> WithoutFeature {
        let environment = ["CELLHOST_TEST_KERNEL_WITHOUT": feature]
        let shellMark = ValidationFixtures.temporaryDirectory() + "/shell-was-here"
        let outside = WorkerSandbox.absolute(ValidationFixtures.temporaryDirectory()) + "/escaped.txt"
        return WithoutFeature(execute: try run(build("EXECVE", target: shellMark), environment: environment),
                              write: try run(build("WRITE_FILE", target: outside), environment: environment),
                              shellMark: shellMark, outside: outside)
    }

    /// Neither the shell ran nor the file outside was written, and each run said once that the
    /// kernel has `missing`.
    func expectKeptOut(_ attacks: WithoutFeature, saying missing: String) {
        #expect(access(attacks.shellMark, F_OK) != 0, "the plugin ran a shell")
        #expect(access(attacks.outside, F_OK) != 0, "the plugin wrote \(attacks.outside)")
        let notice = "cellhost run: running with weaker isolation: the kernel has \(missing)"
        for stderr in attacks.notices { #expect(stderr.components(separatedBy: notice).count == 2, "said once: \(stderr)") }
    }

    /// The attacks failed inside the plugin unreported, and the runs went on to the end.
    func expectUnreported(_ attacks: WithoutFeature) {
        for run in [attacks.execute, attacks.write] {
            #expect(run.result.termination == .exited(code: 0), "\(run.result.standardError)")
        }
    }

    /// Without seccomp's user notification the tool says so once; Landlock still refuses the
    /// program and the write, which then fail in the plugin unreported, and the run goes on.
    @Test func withoutSeccompNotificationLandlockStillRefusesAndTheRunSaysSoOnce() throws {
        let attacks = try Self.attacks(onAKernelWithout: "notify")
        expectKeptOut(attacks, saying: "no seccomp user notification")
        expectUnreported(attacks)
    }

    /// Without Landlock the seccomp filter refuses every program (so the crash backtracer is
    /// off) and the supervisor still refuses and reports the write.
    @Test func withoutLandlockSeccompRefusesProgramsAndTheSupervisorWrites() throws {
        let attacks = try Self.attacks(onAKernelWithout: "landlock")
        expectKeptOut(attacks, saying: "no Landlock")
        expectRefused(attacks.execute, "the plugin tried to start a process")
        expectRefused(attacks.write, "the plugin tried to write \(attacks.outside)")
    }

    /// Without seccomp, Landlock alone keeps the shell from running and the file from being
    /// written; the run says once that sockets, processes and signals are open to plugins.
    @Test func withoutSeccompLandlockAloneKeepsFilesAndProgramsOut() throws {
        let attacks = try Self.attacks(onAKernelWithout: "seccomp")
        expectKeptOut(attacks, saying: "no seccomp")
        expectUnreported(attacks)
    }

    @Test func inspectAndValidateRunTheirWorkersSandboxed() throws {
        let plugin = try Self.build("SOCKET", inInit: true)
        let inspect = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["inspect", plugin])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(inspect.termination == .exited(code: 4), "\(inspect.standardError)")
        #expect(inspect.standardError.contains("the worker was stopped because the plugin tried to open a network socket while loading"),
                "\(inspect.standardError)")
        let validate = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["validate", plugin])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(validate.termination == .exited(code: 4), "\(validate.standardError)")
        #expect(validate.standardOutput.contains("the plugin tried to open a network socket"), "\(validate.standardOutput)")
    }
}
