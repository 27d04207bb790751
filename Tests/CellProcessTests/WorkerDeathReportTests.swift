import Testing
@testable import CellProcess

/// A worker's stderr as the Swift runtime's backtracer leaves it (non-interactive, abridged from
/// a real run): the report keeps the plugin's lines and its frame, nothing of the backtracer's.
@Suite struct WorkerDeathReportTests {
    static let standardError = """
        setting up
        free(): invalid pointer

        *** Signal 11: Backtracing from 0x7f9b2273dc0b... done ***

        *** Program crashed: Bad pointer dereference at 0x0000000000000000 ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "cellhost" crashed:

          0      0x00007f9b2273dc0b set_count + 28 in libsegv.so at /tmp/segv.c:5:37
          1 [ra] 0x00007f9b22732f7a <unknown> in libffi.so.8.1.2
        ...


        Registers:

        rax 0x0000000000000000  0

        Images (33 omitted):

        0x00007f9b2273c000–0x00007f9b2273dc49 b64c836a440930adfaf21b98de629566fa4c32ee libsegv.so      /tmp/libsegv.so

        Backtrace took 0.01s

        """

    func result(_ termination: WorkerTermination, _ standardError: String) -> WorkerResult {
        WorkerResult(termination: termination, standardOutput: "", standardError: standardError, duration: 0)
    }

    @Test func keepsThePluginsLinesThenItsFrameAndDropsTheBacktracersOwn() {
        let report = WorkerDeathReport(result(.signaled(signal: 11), Self.standardError), phase: "at event #2",
                                       pluginFiles: ["./libsegv.so"], rerun: "cellhost run")
        #expect(report.text == """
            the worker crashed with SIGSEGV at event #2
              setting up
              free(): invalid pointer
              in the plugin: set_count + 28 in libsegv.so at /tmp/segv.c:5:37
            """)
    }

    @Test func keepsOnlyTheLastLinesAndBoundsEachOne() {
        let flood = (1...50).map { "line \($0) " + String(repeating: "x", count: 1000) }.joined(separator: "\n")
        let report = WorkerDeathReport(result(.exited(code: 3), flood), phase: nil, pluginFiles: [], rerun: "cellhost run")
        #expect(report.evidence.count == WorkerDeathReport.outputLineLimit)
        #expect(report.evidence.first?.hasPrefix("line 47 ") == true)
        #expect(report.evidence.allSatisfy { $0.count <= WorkerDeathReport.lineLengthLimit + 1 })
    }

    @Test func anAddressSanitizerLoadOrderExitBecomesTheCommandToRunIt() {
        let asan = "==28351==ASan runtime does not come first in initial library list; you should either link runtime "
            + "to your application or manually preload it with LD_PRELOAD.\n"
        let report = WorkerDeathReport(result(.exited(code: 1), asan), phase: "while loading x.so", pluginFiles: ["x.so"],
                                       rerun: "cellhost inspect x.so")
        #expect(report.text == "the plugin was built with AddressSanitizer, whose runtime must be loaded first: run "
                + "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(cc -print-file-name=libasan.so) cellhost inspect x.so")
    }
}
