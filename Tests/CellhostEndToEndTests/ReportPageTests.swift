import CellIO
import CellProcess
import CellTestSupport
import Foundation
import Testing
@testable import CellRuntime

/// `report.html` as a reader sees it: `cellhost run --out` writes it, and headless Chromium
/// (through chromedriver) opens it from the file system and is driven by click and keyboard.
/// A failing check keeps a screenshot of the page in the run's folder and prints its path.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (.ci/setup installs them)"))
struct ReportPageTests {
    func runTool(_ arguments: [String], timeout: Double = 300) async throws -> (status: Int32?, error: String) {
        try await offTheTaskPool {
            let result = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: arguments)
                .run(limits: WorkerLimits(totalSeconds: timeout, outputBytes: 64 << 20)) { _ in }
            if case .exited(let code) = result.termination { return (code, result.standardError) }
            return (nil, "\(result.termination): \(result.standardError)")
        }
    }

    func events(in trace: String) throws -> [TraceEvent] {
        let text = try #require(readTextFile(trace))
        return try text.split(separator: "\n").compactMap { line throws -> TraceEvent? in
            if case .event(let e) = try TraceRecord.decode(line: String(line)) { e } else { nil }
        }
    }

    @Test func everyEventIsListedAndShowsItsFrameAndChanges() async throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-report-test")
        let result = try await runTool(["run", "--events", BuiltProducts.packageRoot + "/SDK/schema/examples/demo-states.jsonl",
                                  "--out", dir, "--quiet"])
        try #require(result.status == 0, "\(result.error)")
        let trace = try events(in: dir + "/trace.jsonl")
        let browser = try await WebDriver()
        do {
            try await browser.open("file://\(dir)/report.html")
            try await browser.waitUntil("document.documentElement.dataset.ready === 'true'", "the page to render")
            try #require(try await browser.execute("return window.cellhostReport.events;") as? Int == trace.count)
            // Every event of the trace is in the timeline: selecting each shows it.
            for event in trace {
                let title = try await browser.execute(
                    "window.cellhostReport.select(arguments[0]); return document.getElementById('detail-title').textContent;",
                    [event.number]) as? String
                try #require(title == "#\(event.number) \(event.summary)")
            }
            // Scrolled to the end, the last event's row is in the DOM (the list is virtual).
            try await browser.execute("const t = document.getElementById('timeline'); t.scrollTop = t.scrollHeight; t.dispatchEvent(new Event('scroll'));")
            try await browser.waitUntil("document.querySelector('.row[data-event=\"\(trace.last!.number)\"]')", "the last row")

            // Click an event with property changes and a frame: its frame and its changes show.
            let chosen = try #require(trace.first { $0.number > 0 && !$0.frames.isEmpty && $0.updates.contains { !$0.changes.isEmpty } })
            try await browser.execute("window.cellhostReport.select(0); const t = document.getElementById('timeline'); t.scrollTop = 0; t.dispatchEvent(new Event('scroll'));")
            try await browser.waitUntil("document.querySelector('.row[data-event=\"\(chosen.number)\"]')", "the chosen row")
            try await browser.click(".row[data-event=\"\(chosen.number)\"]")
            try #require(try await browser.execute("return window.cellhostReport.selectedEvent();") as? Int == chosen.number)
            let frameFile = try #require(chosen.frames.last?.file)
            try await browser.waitUntil(
                "[...document.querySelectorAll('#frames img')].some(i => i.src.endsWith('frames/\(frameFile)') && i.complete && i.naturalWidth > 0)",
                "frame \(frameFile) to load")
            let properties = try await browser.execute(
                "return [...document.querySelectorAll('tr.change td:first-child')].map(td => td.textContent);") as? [String] ?? []
            for update in chosen.updates {
                for change in update.changes {
                    try #require(properties.contains("\(change.configuration).\(change.property)"), "\(change.property) of \(update.cell) is listed")
                }
            }
            // Colours carry their hex value as text next to the swatch.
            let swatches = try await browser.execute("return document.querySelectorAll('tr.change .swatch').length;") as? Int ?? 0
            if chosen.updates.contains(where: { $0.changes.contains { $0.new.contains("#") } }) { try #require(swatches > 0) }

            // The damage overlay shows the event's damage and toggles.
            let overlayShown = "[...document.querySelectorAll('.damage-rect')].some(r => getComputedStyle(r).display !== 'none')"
            if !chosen.frames.flatMap(\.damage).isEmpty {
                try await browser.waitUntil(overlayShown, "the damage overlay")
                try await browser.click("#show-damage")
                try await browser.waitUntil("!(\(overlayShown))", "the damage overlay to hide")
                try await browser.click("#show-damage")
                try await browser.waitUntil(overlayShown, "the damage overlay to come back")
            }

            // Swipe: the frame before and this one laid over each other, with a labelled slider.
            if let before = chosen.frames.first.map({ $0.index - 1 }), before > 0 {
                try await browser.execute("const c = document.getElementById('compare'); c.value = 'swipe'; c.dispatchEvent(new Event('change'));")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('.swipe img')].filter(i => i.complete && i.naturalWidth > 0).length === 2 && document.querySelector('.swipe + div input[type=range][aria-label]')",
                    "the swipe comparison")
                try await browser.execute("const c = document.getElementById('compare'); c.value = 'side'; c.dispatchEvent(new Event('change'));")
            }

            // Filters: a reason keeps the events with a change for that reason; a cell, those that updated it.
            for reason in Set(trace.flatMap { $0.updates.flatMap { $0.changes.map(\.reason.rawValue) } }).sorted() {
                let expected = trace.filter { $0.updates.contains { $0.changes.contains { $0.reason.rawValue == reason } } }.count
                let shown = try await browser.execute("""
                    const s = document.getElementById('filter-reason'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));
                    return document.getElementById('filter-count').textContent;
                    """, [reason]) as? String
                try #require(shown == "\(expected) of \(trace.count) events", "reason \(reason)")
            }
            let cell = try #require(trace.last?.updates.first?.cell)
            let withCell = trace.filter { $0.updates.contains { $0.cell == cell } }.count
            let shown = try await browser.execute("""
                const r = document.getElementById('filter-reason'); r.value = ''; r.dispatchEvent(new Event('change'));
                const s = document.getElementById('filter-cell'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));
                const count = document.getElementById('filter-count').textContent;
                s.value = ''; s.dispatchEvent(new Event('change'));
                return count;
                """, [cell]) as? String
            try #require(shown == "\(withCell) of \(trace.count) events", "cell \(cell)")

            // The keyboard steps: → and j forward, ← and k back.
            try await browser.click(".row[data-event=\"\(chosen.number)\"]")
            try await browser.press(WebDriver.Key.right.rawValue, in: "#timeline")
            try #require(try await browser.execute("return window.cellhostReport.selectedEvent();") as? Int == chosen.number + 1)
            try await browser.press("j", in: "#timeline")
            try #require(try await browser.execute("return window.cellhostReport.selectedEvent();") as? Int == chosen.number + 2)
            try await browser.press(WebDriver.Key.left.rawValue + "k", in: "#timeline")
            try #require(try await browser.execute("return window.cellhostReport.selectedEvent();") as? Int == chosen.number)
        } catch {
            await browser.keepScreenshot(at: "\(dir)/report-failure.png")
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    /// A plugin that crashes in event 2: the page still appears, says how the run ended at the
    /// top, and marks the event it died on in the timeline.
    @Test func aCrashIsMarkedOnItsEvent() async throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-report-crash")
        try CrashReportTests.scene.write(toFile: dir + "/events.jsonl", atomically: true, encoding: .utf8)
        let result = try await runTool(["run", "--plugin", try ValidationFixtures.build("crash_on_count"), "--events", dir + "/events.jsonl",
                                  "--out", dir, "--quiet"])
        #expect(result.status == 4, "\(result.error)")
        let browser = try await WebDriver()
        do {
            try await browser.open("file://\(dir)/report.html")
            try await browser.waitUntil("document.documentElement.dataset.ready === 'true'", "the page to render")
            let banner = try await browser.execute("return document.getElementById('run-banner').textContent;") as? String ?? ""
            try #require(banner.contains("pluginCrashed at event #2") && banner.contains("SIGSEGV"), "\(banner)")
            let row = try await browser.execute(
                "const r = document.querySelector('.row[data-event=\"2\"]'); return r ? r.className + ' ' + r.textContent : '';") as? String
            try #require(row?.contains("crash") == true, "event 2's row is marked: \(row ?? "no row")")
        } catch {
            await browser.keepScreenshot(at: "\(dir)/report-failure.png")
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    /// Prints how long a 10,000-event run's page takes to open and to step: a figure for
    /// BENCHMARKS.md, not asserted (it depends on the machine).
    @Test func tenThousandEventPageLoadTime() async throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-report-big")
        var stream = """
            {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 300}, "scale": 1}}
            {"section": {"id": "s"}}
            {"item": {"id": "a", "set": {"text": "Alpha"}}}
            {"item": {"id": "b", "set": {"text": "Beta", "secondaryText": "second"}}}

            """
        for i in 0..<10_000 { stream += "{\"cell\": \"\(i % 2 == 0 ? "a" : "b")\", \"selected\": \(i % 4 < 2)}\n" }
        try stream.write(toFile: dir + "/big.jsonl", atomically: true, encoding: .utf8)
        let result = try await runTool(["run", "--events", dir + "/big.jsonl", "--report", dir + "/report.html", "--quiet"], timeout: 600)
        try #require(result.status == 0, "\(result.error)")
        let browser = try await WebDriver()
        do {
            let start = ContinuousClock.now
            try await browser.open("file://\(dir)/report.html")
            try await browser.waitUntil("document.documentElement.dataset.ready === 'true'", seconds: 60, "the page to render")
            let opened = ContinuousClock.now - start
            try #require(try await browser.execute("return window.cellhostReport.events;") as? Int == 10_001)
            let inPage = try await browser.execute("return window.cellhostReport.readyAt;") as? Double ?? 0
            let rows = try await browser.execute("return document.querySelectorAll('.row').length;") as? Int ?? 0
            try #require(rows < 200, "only the rows in view are in the DOM")
            let step = try await browser.execute("""
                const t = document.getElementById('timeline'); t.focus();
                const n = 200, s = performance.now();
                for (let i = 0; i < n; i++) {
                  t.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
                  document.body.offsetHeight;
                }
                return (performance.now() - s) / n;
                """) as? Double ?? 0
            print("report.html of 10,000 events: opened in \(opened) (rendered \(Int(inPage)) ms after navigation began), "
                  + "\(String(format: "%.2f", step)) ms a step, \(rows) rows in the DOM")
        } catch {
            await browser.keepScreenshot(at: "\(dir)/report-failure.png")
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
