import Glibc
import Testing
@testable import CellProcess

/// Whose a trap is, from the backtracer's report: the innermost frame outside the Swift runtime
/// and the system's libraries decides. In the worker's own executable it is cellhost's bug; in a
/// plugin, or with no report, or for another signal, it stays the plugin's.
@Suite struct HostTrapFrameTests {
    static func standardError(_ frames: [String]) -> String {
        """
        Fatal error: Double value cannot be converted to Int because it is either infinite or NaN

        💣 Program crashed: Illegal instruction at 0x00007f1c2a4b1e3c

        Thread 0 "cellhost" crashed:

        \(frames.enumerated().map { "  \($0.offset) [ra] 0x00007f1c2a4b1e3c \($0.element)" }.joined(separator: "\n"))

        Registers:

        rax 0x0000000000000000  0

        """
    }

    static let inHost = ["_assertionFailure(_:_:file:line:flags:) + 264 in libswiftCore.so",
                         "Int.init(_:) + 98 in cellhost at /src/Sources/CellKit/Geometry.swift:12:9",
                         "draw + 40 in libplugin.so at /src/plugin.c:3:1"]
    static let inPlugin = ["_assertionFailure(_:_:file:line:flags:) + 264 in libswiftCore.so",
                           "PluginCell.draw() + 12 in libplugin.so at /src/Plugin.swift:8:5",
                           "ffi_call + 30 in libffi.so.8", "Engine.run() + 10 in cellhost at /src/Engine.swift:1:1"]

    func frame(_ signal: Int32, _ frames: [String]) -> String? {
        let result = WorkerResult(termination: .signaled(signal: signal), standardOutput: "",
                                  standardError: Self.standardError(frames), duration: 0)
        return WorkerDeathReport.hostTrapFrame(result, executable: "/usr/local/bin/cellhost")
    }

    @Test func aTrapWhoseFirstFrameOutsideTheRuntimeIsTheHostsIsTheHosts() {
        #expect(frame(SIGILL, Self.inHost) == "Int.init(_:) + 98 in cellhost at /src/Sources/CellKit/Geometry.swift:12:9")
        #expect(frame(SIGTRAP, Self.inHost) != nil)
    }

    @Test func aTrapInAPluginOrAnotherSignalOrNoReportStaysThePlugins() {
        #expect(frame(SIGILL, Self.inPlugin) == nil)
        #expect(frame(SIGSEGV, Self.inHost) == nil, "a wild write may surface in host code")
        let bare = WorkerResult(termination: .signaled(signal: SIGILL), standardOutput: "", standardError: "Fatal error: x\n", duration: 0)
        #expect(WorkerDeathReport.hostTrapFrame(bare, executable: "cellhost") == nil)
    }
}
