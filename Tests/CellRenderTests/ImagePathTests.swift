import Glibc
import Testing
@testable import CellRender

/// An image is read only from a regular file, opened without blocking: a FIFO nobody writes to
/// would stop the worker, and /dev/zero never ends.
@Suite struct ImagePathTests {
    @Test(arguments: ["fifo", "/dev/zero", "folder"])
    func onlyARegularFileIsRead(kind: String) {
        let path: String
        switch kind {
        case "fifo": path = Fixtures.temporaryDirectory + "/image-pipe-\(getpid()).png"; unlink(path); #expect(mkfifo(path, 0o600) == 0)
        case "folder": path = Fixtures.temporaryDirectory
        default: path = kind
        }
        let clock = ContinuousClock(), start = clock.now
        #expect(throws: PNGError.self) { try RasterImage.decodePNG(path: path) }
        #expect(clock.now - start < .seconds(5))
        do { _ = try RasterImage.decodePNG(path: path) } catch {
            #expect(error.reason.contains("not a regular file"), "\(error)")
        }
    }
}
