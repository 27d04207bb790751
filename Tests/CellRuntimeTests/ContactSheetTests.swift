import CellKit
import CellRender
import Testing
@testable import CellRuntime

/// The contact sheet: each thumbnail above its label ("#N summary"), drawn by the text engine
/// in a strip of its own, so labels never cover a frame.
@Suite struct ContactSheetTests {
    func thumbnail(_ argb: UInt32) -> RasterImage {
        RasterImage(width: 60, height: 40, pixels: [UInt32](repeating: argb, count: 60 * 40))
    }

    /// Pixels of the strip under thumbnail `index` of a one-row sheet that differ from the grey ground.
    func inkUnder(_ index: Int, of sheet: RasterImage, thumbnailHeight: Int) -> Int {
        let x0 = ContactSheet.gap + index * (60 + ContactSheet.gap), y0 = ContactSheet.gap + thumbnailHeight
        var ink = 0
        for y in y0..<(y0 + ContactSheet.labelHeight) {
            for x in x0..<(x0 + 60) where sheet.pixels[y * sheet.width + x] != 0xFF_80_80_80 { ink += 1 }
        }
        return ink
    }

    @Test func everyThumbnailHasItsLabelUnderIt() throws {
        let engine = try TextEngine()
        let frames = [thumbnail(0xFF_FF_00_00), thumbnail(0xFF_00_FF_00), thumbnail(0xFF_00_00_FF)]
        let sheet = ContactSheet.compose(frames, labels: ["#0 first display", "#1 a: selected", ""], textEngine: engine)
        #expect(sheet.height == 40 + ContactSheet.labelHeight + 2 * ContactSheet.gap)
        #expect(inkUnder(0, of: sheet, thumbnailHeight: 40) > 20, "the first label is drawn")
        #expect(inkUnder(1, of: sheet, thumbnailHeight: 40) > 20, "the second label is drawn")
        #expect(inkUnder(2, of: sheet, thumbnailHeight: 40) == 0, "a frame without a label has a bare strip")
        // The thumbnails themselves are untouched by the labels.
        for (i, expected) in [0xFF_FF_00_00, 0xFF_00_FF_00, 0xFF_00_00_FF].enumerated() {
            let x = ContactSheet.gap + i * (60 + ContactSheet.gap)
            for y in ContactSheet.gap..<(ContactSheet.gap + 40) {
                #expect(sheet.pixels[y * sheet.width + x + 30] == UInt32(expected))
            }
        }
    }

    @Test func withoutLabelsTheGridIsAsBefore() {
        let sheet = ContactSheet.compose([thumbnail(0xFF_FF_00_00), thumbnail(0xFF_00_FF_00)])
        #expect(sheet.height == 40 + 2 * ContactSheet.gap)
        #expect(sheet.width == 2 * 60 + 3 * ContactSheet.gap)
    }

    @Test func labelsFollowTheFramesTheyNameWhenALongRunIsSampled() throws {
        let count = ContactSheet.maximumFrames * 3
        let frames = (0..<count).map { thumbnail(0xFF_00_00_00 | UInt32($0)) }
        let labels = (0..<count).map { $0 == count - 1 ? "#last" : "" }
        let sheet = ContactSheet.compose(frames, labels: labels, textEngine: try TextEngine())
        // The last frame is always sampled, and its label comes with it: the last cell of the grid has ink.
        let columns = 8, last = ContactSheet.maximumFrames - 1
        let cellHeight = 40 + ContactSheet.labelHeight
        let x0 = ContactSheet.gap + (last % columns) * (60 + ContactSheet.gap)
        let y0 = ContactSheet.gap + (last / columns) * (cellHeight + ContactSheet.gap) + 40
        var ink = 0
        for y in y0..<(y0 + ContactSheet.labelHeight) {
            for x in x0..<(x0 + 60) where sheet.pixels[y * sheet.width + x] != 0xFF_80_80_80 { ink += 1 }
        }
        #expect(ink > 5)
    }

    /// A label leads with what changed: an event on many cells names the change and counts the
    /// cells, and an animation's frames say how far along they are before the summary.
    @Test func labelsSayWhatChangedBeforeWhom() {
        #expect(RunSession.thumbnailSummary("a,b,c,d,e: highlighted") == "highlighted (5 cells)")
        #expect(RunSession.thumbnailSummary("a,b: selected") == "a,b: selected")
        #expect(RunSession.thumbnailSummary("traits: dark") == "traits: dark")
        var event = TraceEvent(number: 7, line: 9, summary: "a,b,c: selected", note: nil, start: 0, updates: [],
                               frames: [FrameTrace(index: 1, file: nil, damage: [], damagedPixels: 0, progress: 0.5),
                                        FrameTrace(index: 2, file: nil, damage: [], damagedPixels: 0, progress: nil)],
                               timings: PhaseTimings(), problems: [])
        #expect(RunSession.contactSheetLabels(event) == ["#7 50% selected (3 cells)", "#7 selected (3 cells)"])
        event.frames = []
        #expect(RunSession.contactSheetLabels(event).isEmpty)
    }
}
