import CellProcess
import Testing

/// `--memory-limit` values and how a limit is written back in a report.
@Suite struct WorkerSandboxTests {
    @Test func memoryLimitsAreBytesOrPowersOf1024() {
        #expect(WorkerSandbox.parseMemoryLimit("2G") == 2 << 30)
        #expect(WorkerSandbox.parseMemoryLimit("512m") == 512 << 20)
        #expect(WorkerSandbox.parseMemoryLimit("1GB") == 1 << 30)
        #expect(WorkerSandbox.parseMemoryLimit("1073741824") == 1 << 30)
        for bad in ["", "0", "G", "-1G", "2X", "1.5G", "99999999999T"] {
            #expect(WorkerSandbox.parseMemoryLimit(bad) == nil, "\(bad)")
        }
    }

    @Test func aLimitIsDescribedInTheUnitItWasGivenIn() {
        #expect(WorkerSandbox.describe(bytes: 2 << 30) == "2 GB")
        #expect(WorkerSandbox.describe(bytes: 512 << 20) == "512 MB")
        #expect(WorkerSandbox.describe(bytes: 1000) == "1000 bytes")
    }

    /// A path that does not exist yet (a contact sheet) is resolved through its folder.
    @Test func pathsAreMadeAbsolute() {
        #expect(WorkerSandbox.absolute("/tmp/../tmp/not-there-yet.png") == "/tmp/not-there-yet.png")
        #expect(WorkerSandbox.absolute("relative-name").hasPrefix("/"))
    }
}
