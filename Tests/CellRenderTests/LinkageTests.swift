import Foundation
import Testing

/// The compositor must run headless: nothing in the process may link X11 (Debian's cairo does,
/// which is why cairo is not used).
@Test func testBinaryLinksNoX11() throws {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    ldd.arguments = [executable]
    let pipe = Pipe()
    ldd.standardOutput = pipe
    try ldd.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    #expect(ldd.terminationStatus == 0)
    // The binary really links the compositor's libraries, so the check below means something.
    #expect(output.contains("libpixman-1"), "ldd output: \(output)")
    #expect(output.contains("libharfbuzz"))
    #expect(output.contains("libpng16"))
    #expect(!output.contains("libX11"), "the test binary links X11:\n\(output)")
    #expect(!output.contains("libxcb"), "the test binary links xcb:\n\(output)")
}
