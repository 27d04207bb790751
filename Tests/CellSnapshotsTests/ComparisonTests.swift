import CellRender
import CellRuntime
import Testing
@testable import CellSnapshots

@Suite struct ComparisonTests {
    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> UInt32) -> RasterImage {
        RasterImage(width: width, height: height, pixels: (0..<width * height).map { pixel($0 % width, $0 / width) })
    }

    @Test func toleranceCountsChannelsThenPixels() {
        let grey = image(10, 10) { _, _ in 0xFF80_8080 }
        // Three pixels off by 3 in red.
        let off = image(10, 10) { x, y in y == 0 && x < 3 ? 0xFF83_8080 : 0xFF80_8080 }
        #expect(!ImageComparison.compare(grey, off, tolerance: .exact).matches)
        #expect(ImageComparison.compare(grey, off, tolerance: ImageTolerance(channel: 3)).matches)
        #expect(ImageComparison.compare(grey, off, tolerance: ImageTolerance(channel: 0, pixelFraction: 0.03)).matches)
        #expect(!ImageComparison.compare(grey, off, tolerance: ImageTolerance(channel: 0, pixelFraction: 0.02)).matches)
        let result = ImageComparison.compare(grey, off, tolerance: .exact)
        #expect(result.differingPixels == 3 && result.maxChannelDifference == 3)
        #expect(result.bounds == PixelRect(x: 0, y: 0, width: 3, height: 1))
    }

    @Test func aSizeChangeNeverMatches() {
        let a = image(4, 4) { _, _ in 0xFFFF_FFFF }, b = image(4, 5) { _, _ in 0xFFFF_FFFF }
        let result = ImageComparison.compare(a, b, tolerance: ImageTolerance(channel: 255, pixelFraction: 0.5))
        #expect(!result.matches)
        #expect(result.explanation == "size 4×4 px → 4×5 px")
        // The diff covers both and marks the row only one has.
        let diff = DiffImage.make(expected: a, actual: b, channelTolerance: 0, bounds: nil)
        #expect(diff.height == 5 && diff[0, 4] == DiffImage.marked && diff[0, 0] != DiffImage.marked)
    }

    @Test func theDiffFadesTheExpectedImage() {
        let black = DiffImage.faded(0xFF00_0000)
        // Faded black is a light grey: the change stays the darkest thing in the picture.
        #expect((black >> 16) & 0xFF > 150 && (black >> 16) & 0xFF < 255)
        #expect(DiffImage.faded(0xFFFF_FFFF) == 0xFFFF_FFFF)
        #expect(DiffImage.faded(0) == 0xFFFF_FFFF)  // transparent shows white
    }

    @Test func unifiedDiffShowsHunksWithContext() {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingFirst("line 10\n", with: "line ten\n")
        let diff = UnifiedDiff.diff(from: old, to: new, oldName: "a", newName: "b")
        #expect(diff == """
            --- a
            +++ b
            @@ -7,7 +7,7 @@
             line 7
             line 8
             line 9
            -line 10
            +line ten
             line 11
             line 12
             line 13

            """)
        #expect(UnifiedDiff.diff(from: old, to: old, oldName: "a", newName: "b") == nil)
        let added = UnifiedDiff.diff(from: "", to: "x\n", oldName: "a", newName: "b")
        #expect(added == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n")
    }

    @Test func theTraceSnapshotHoldsNoTimingsOrNumbers() {
        let update = CellUpdateTrace(cell: "a", type: "com.cellhost.list-content", cause: "selected", stateBefore: [],
                                     stateAfter: ["selected"],
                                     changes: [PropertyChangeTrace(configuration: "content", property: "textProperties.color",
                                                                   old: "label", new: "white", reason: .restyled, cause: "selected")],
                                     view: .reused, supports: true, size: .init(width: 300, height: 44),
                                     frame: .init(x: 0, y: 0, width: 300, height: 44), damage: nil, micros: 123.4)
        let event = TraceEvent(number: 7, line: 19, summary: "a: selected", start: 99, updates: [update])
        let text = TraceSnapshot.text(of: [event])
        #expect(text == """
            {"event":"a: selected"}
            {"cell":"a","type":"com.cellhost.list-content","cause":"selected","state":"normal → selected","view":"reused","size":"300×44"}
            {"cell":"a","property":"content.textProperties.color","old":"label","new":"white","reason":"restyled","because":"selected"}

            """)
    }

    @Test func streamNamesDropTheirSuffix() {
        #expect(SnapshotPlan.streamName("Tests/cellhost/badge-cell.jsonl") == "badge-cell")
        #expect(SnapshotPlan.streamName("inbox.cellhost.jsonl") == "inbox")
        // References live beside the stream, or under --snapshots DIR, in a folder per stream.
        let reference = { (path: String, snapshots: String?) in
            SnapshotPlan.stream(at: path, snapshots: snapshots, shard: nil).referenceDirectory
        }
        #expect(reference("Tests/cellhost/badge-cell.jsonl", nil) == "Tests/cellhost/__Snapshots__/badge-cell")
        #expect(reference("inbox.cellhost.jsonl", nil) == "__Snapshots__/inbox")
        #expect(reference("/abs/inbox.jsonl", "refs") == "refs/inbox")
    }
}
