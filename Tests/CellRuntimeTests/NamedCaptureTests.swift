import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// The stream vocabulary of `cellhost test`: named captures, cell captures, the trait matrix and
/// tolerances; and what a run writes for them.
@Suite struct NamedCaptureTests {
    static let scene = """
        {"scene": {"viewport": {"width": 320, "height": 300}, "scale": 2}}
        {"item": {"id": "inbox", "set": {"text": "Inbox"}}}
        {"item": {"id": "sent", "set": {"text": "Sent"}}}
        """

    func parse(_ lines: String) throws(EventStreamError) -> (SceneDescription, [Event]) {
        try EventStreamParser.parse(Self.scene + "\n" + lines, source: "s.jsonl")
    }

    func message(_ lines: String) -> String? {
        do { _ = try parse(lines); return nil } catch { return error.description }
    }

    @Test func captureForms() throws {
        let (_, events) = try parse("""
            {"capture": true}
            {"capture": "whole"}
            {"capture": {"name": "inbox-only", "cell": "inbox"}}
            """)
        #expect(events.map(\.actions) == [[.capture(name: nil)], [.capture(name: "whole")],
                                          [.capture(name: "inbox-only", cell: "inbox")]])
    }

    @Test func aCaptureNameIsUsedOnceAndTheErrorNamesBothLines() {
        let text = message("""
            {"capture": "selected"}
            {"cell": "inbox", "selected": true}
            {"capture": {"name": "selected", "cell": "inbox"}}
            """)
        #expect(text == "s.jsonl:6: capture name \"selected\" is already used on line 4; each capture needs its own name")
    }

    @Test func anUnknownCellIsNamedWithItsLine() {
        #expect(message(#"{"capture": {"name": "x", "cell": "inbx"}}"#)
            == "s.jsonl:4: capture \"x\": no item \"inbx\"; did you mean \"inbox\"?")
    }

    /// The issue's words: `appearance` and `textSize` for the scene's `style` and `contentSize`.
    @Test func matrixAliases() throws {
        let (scene, _) = try EventStreamParser.parse("""
            {"matrix": {"appearance": ["light", "dark"], "textSize": ["L", "AX3"], "direction": ["ltr", "rtl"]}}
            {"item": {"id": "a"}}
            """, source: "m.jsonl")
        let combinations = try #require(scene.matrix).combinations
        #expect(combinations.last?.name == "dark-AX3-rtl")
        #expect(combinations.last?.traits == TraitChange(userInterfaceStyle: .dark, contentSizeCategory: .accessibilityExtraLarge,
                                                         layoutDirection: .rightToLeft))
    }

    @Test(arguments: [#"{"capture": "a.b"}"#, #"{"capture": "a/b"}"#, #"{"capture": "frame-0001"}"#, #"{"capture": ""}"#,
                      #"{"capture": {"cell": "inbox"}}"#, #"{"capture": {"name": "a", "crop": 1}}"#, #"{"capture": 3}"#])
    func badCapturesAreRefused(_ line: String) {
        let text = message(line)
        #expect(text?.hasPrefix("s.jsonl:4: ") == true, "\(text ?? "accepted")")
    }

    @Test func matrixCombinationsAndTheirNames() throws {
        let (scene, _) = try EventStreamParser.parse("""
            {"matrix": {"style": ["light", "dark"], "contentSize": ["L", "AX3"], "direction": ["ltr", "rtl"]}}
            {"item": {"id": "a"}}
            """, source: "m.jsonl")
        let combinations = try #require(scene.matrix).combinations
        #expect(combinations.map(\.name) == ["light-L-ltr", "light-L-rtl", "light-AX3-ltr", "light-AX3-rtl",
                                             "dark-L-ltr", "dark-L-rtl", "dark-AX3-ltr", "dark-AX3-rtl"])
        #expect(combinations[6].traits == TraitChange(userInterfaceStyle: .dark, contentSizeCategory: .accessibilityExtraLarge,
                                                      layoutDirection: .leftToRight))
    }

    @Test(arguments: [
        (#"{"matrix": {"styel": ["dark"]}}"#, "\"styel\" is not a trait of \"matrix\""),
        (#"{"matrix": {"style": ["dark"], "appearance": ["light"]}}"#, "name the same trait"),
        (#"{"matrix": {"style": ["dim"]}}"#, "\"style\" is one of"),
        (#"{"matrix": {"style": "dark"}}"#, "takes a non-empty list"),
        (#"{"matrix": {"style": ["dark", "dark"]}}"#, "twice"),
        (#"{"matrix": {}}"#, "takes an object of traits"),
    ])
    func badMatricesAreRefused(_ line: String, _ expected: String) {
        do {
            _ = try EventStreamParser.parse(line + "\n{\"item\": {\"id\": \"a\"}}", source: "m.jsonl")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.description.hasPrefix("m.jsonl:1: "))
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func toleranceIsPerStreamAndExactByDefault() throws {
        #expect(try parse("").0.imageTolerance == .exact)
        let (scene, _) = try EventStreamParser.parse("""
            {"scene": {"tolerance": {"channel": 2, "pixels": 0.001}}}
            {"item": {"id": "a"}}
            """, source: "t.jsonl")
        #expect(scene.imageTolerance == ImageTolerance(channel: 2, pixelFraction: 0.001))
        #expect(throws: EventStreamError.self) {
            try EventStreamParser.parse("{\"scene\": {\"tolerance\": {\"pixels\": 2}}}\n{\"item\": {\"id\": \"a\"}}", source: "t.jsonl")
        }
    }

    // MARK: Runs

    private func run(_ events: String, capturesOnly: Bool = false, combination: Int? = nil, scene: String = NamedCaptureTests.scene)
        -> (TraceEnd, String) {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-captures")
        let stream = dir + "/s.jsonl"
        writeFile(scene + "\n" + events + "\n", to: stream)
        let frames = dir + "/frames"
        let options = RunOptions(events: stream, framesDirectory: frames, capturesOnly: capturesOnly, matrixCombination: combination)
        let end = RunSession.run(options, output: NoOutput())
        return (end, frames)
    }

    @Test func aNamedCaptureIsWrittenBesideTheNumberedFrames() throws {
        let (end, frames) = run("""
            {"cell": "inbox", "selected": true}
            {"capture": "whole"}
            {"capture": {"name": "inbox-only", "cell": "inbox"}}
            """)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        let names = Set(directoryEntries(frames) ?? [])
        // The numbered frames: the first display and the selection; the two captures repeat the
        // selection's frame, so they point at its file instead of writing it again.
        #expect(names == ["frame-0001.png", "frame-0002.png", "whole.png", "inbox-only.png"])
        let whole = try RasterImage.decodePNG(path: frames + "/whole.png")
        #expect(whole == (try RasterImage.decodePNG(path: frames + "/frame-0002.png")))
        let cell = try RasterImage.decodePNG(path: frames + "/inbox-only.png")
        // The inset grouped cell is 280 points wide (20 points in from each edge): with the margin
        // on each side, 296 points at scale 2.
        #expect(cell.width == 2 * (280 + 2 * Int(Engine.cellCaptureMargin)))
        #expect(cell.height < whole.height / 2 && cell.height > Int(2 * Engine.cellCaptureMargin * 2))
    }

    @Test func aTestRunWritesOnlyTheNamedCaptures() {
        let (end, frames) = run(#"{"capture": "whole"}"#, capturesOnly: true)
        #expect(end.outcome == .ok)
        #expect(directoryEntries(frames) == ["whole.png"])
    }

    @Test func aCombinationSetsItsTraitsAndSuffix() throws {
        let scene = #"{"matrix": {"style": ["light", "dark"]}}"# + "\n" + NamedCaptureTests.scene
        let (light, lightFrames) = run(#"{"capture": "whole"}"#, capturesOnly: true, combination: 0, scene: scene)
        let (dark, darkFrames) = run(#"{"capture": "whole"}"#, capturesOnly: true, combination: 1, scene: scene)
        #expect(light.outcome == .ok && dark.outcome == .ok)
        let lightImage = try RasterImage.decodePNG(path: lightFrames + "/whole.light.png")
        let darkImage = try RasterImage.decodePNG(path: darkFrames + "/whole.dark.png")
        // Dark mode's list background is black, light mode's a light grey.
        #expect(darkImage.rgba(x: 1, y: darkImage.height - 2).red < 40)
        #expect(lightImage.rgba(x: 1, y: lightImage.height - 2).red > 200)
        let (missing, _) = run(#"{"capture": "whole"}"#, capturesOnly: true, combination: 2, scene: scene)
        #expect(missing.outcome == .badInput)
    }

    @Test func aCellOffScreenIsBadInputAtItsLine() {
        let scene = NamedCaptureTests.scene + "\n" + (0..<30).map { "{\"item\": {\"id\": \"row\($0)\", \"set\": {\"text\": \"Row\"}}}" }
            .joined(separator: "\n")
        let (end, _) = run(#"{"capture": {"name": "last", "cell": "row29"}}"#, scene: scene)
        #expect(end.outcome == .badInput)
        #expect(end.message?.contains(":34:") == true && end.message?.contains("not on screen") == true, "\(end.message ?? "")")
    }
}

private final class NoOutput: RunOutput {
    func begin(event: Int, line: Int) {}
    func record(_ record: TraceRecord) {}
}
