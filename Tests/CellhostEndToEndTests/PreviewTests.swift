import CellTestSupport
import Foundation
import Testing

/// `cellhost preview` as an author uses it: the server runs the plugin's stream, a headless
/// Chromium shows the report, and a change to the stream shows on the open page by itself; a
/// broken change shows its error while the last good run stays; Ctrl-C ends the server cleanly.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (.ci/setup installs them)"))
struct PreviewTests {
    static let scene = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "plugins"}}
        {"item": {"id": "upload", "type": "com.cellhost.samples.progress", "set": {"title": "Upload", "progress": 0.4}}}
        {"cell": "upload", "selected": true}

        """

    /// The preview process, its printed URL read from stdout.
    final class Preview {
        let process = Process()
        let output = Pipe()
        var url = ""

        init(arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: BuiltProducts.cellhost)
            process.arguments = ["preview"] + arguments
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            var printed = ""
            let deadline = ContinuousClock.now + .seconds(120)
            while !printed.contains("\n"), ContinuousClock.now < deadline, process.isRunning {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                printed += String(decoding: data, as: UTF8.self)
            }
            guard let range = printed.range(of: #"http://[^ \n]+"#, options: .regularExpression) else {
                process.terminate()
                throw WebDriver.Failure("cellhost preview printed no URL: \(printed)")
            }
            url = String(printed[range])
        }

        /// Ctrl-C: the exit status.
        func interrupt() -> Int32 {
            kill(process.processIdentifier, SIGINT)
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline { usleep(50_000) }
            if process.isRunning { process.terminate(); return -1 }
            return process.terminationStatus
        }
    }

    @Test func aChangedStreamShowsOnTheOpenPage() async throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-preview-test")
        let stream = dir + "/stream.jsonl"
        try Self.scene.write(toFile: stream, atomically: true, encoding: .utf8)
        let preview = try Preview(arguments: ["--plugin", BuiltProducts.samplePlugin("ProgressMeter"), "--events", stream,
                                              "--port", "0"])
        #expect(preview.url.hasPrefix("http://127.0.0.1:"), "binds the loopback address by default")
        let browser = try await WebDriver()
        do {
            try await browser.open(preview.url)
            try await browser.waitUntil("document.documentElement.dataset.ready === 'true'", "the report")
            try #require(try await browser.execute("return window.cellhostReport.events;") as? Int == 2)
            let firstPath = try await browser.execute("return location.pathname;") as? String

            // A new event in the stream: the page moves to the new run by itself. How soon is
            // printed, not asserted: the deadline only bounds a loaded machine's run and reload.
            try (Self.scene + "{\"cell\": \"upload\", \"selected\": false}\n").write(toFile: stream, atomically: true, encoding: .utf8)
            let changed = ContinuousClock.now
            try await browser.waitUntil(
                "location.pathname !== '\(firstPath ?? "")' && document.documentElement.dataset.ready === 'true' && window.cellhostReport.events === 3",
                seconds: 60, "the page to show the changed stream")
            print("preview: the page showed the changed stream \(ContinuousClock.now - changed) after the change")

            // A broken stream: the error shows, the last good run stays.
            try (Self.scene + "{\"cell\": \"nosuchcell\", \"selected\": true}\n").write(toFile: stream, atomically: true, encoding: .utf8)
            try await browser.waitUntil("document.getElementById('live-banner').textContent.includes('nosuchcell')", seconds: 60,
                                        "the failure to show")
            try #require(try await browser.execute("return window.cellhostReport.events;") as? Int == 3)
        } catch {
            await browser.keepScreenshot(at: "\(dir)/preview-failure.png")
            await browser.quit()
            _ = preview.interrupt()
            throw error
        }
        await browser.quit()
        #expect(preview.interrupt() == 0, "Ctrl-C ends the preview with exit status 0")
    }
}
