import Foundation
import CellTestSupport
import Testing

/// The compositor must run headless: nothing in the process may link X11 (Debian's cairo does,
/// which is why cairo is not used). Checked on this test binary and on the built `cellhost`
/// tool, which sits in the same build directory.
@Suite struct LinkageTests {
    static let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    static let tool = BuiltProducts.cellhost

    func sharedLibraries(of path: String) throws -> String {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0, "ldd \(path) failed")
        return output
    }

    @Test(arguments: [testBinary, tool])
    func linksTheCompositorLibrariesButNoX11(_ path: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built: run swift build first")
        let output = try sharedLibraries(of: path)
        // The binary really links the compositor's libraries, so the check below means something.
        #expect(output.contains("libpixman-1"), "ldd \(path): \(output)")
        #expect(output.contains("libharfbuzz"))
        #expect(output.contains("libpng16"))
        #expect(!output.contains("libX11"), "\(path) links X11:\n\(output)")
        #expect(!output.contains("libxcb"), "\(path) links xcb:\n\(output)")
    }
}
