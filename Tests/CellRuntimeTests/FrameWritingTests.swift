import CellKit
import CellRender
import Testing
@testable import CellRuntime

/// Frames are encoded from the damage between them; every written file must still show the
/// whole framebuffer as it was when the frame was queued.
@Suite struct FrameWritingTests {
    private func run(showsDamage: Bool, keepsThumbnails: Bool) throws {
        let dir = temporaryDirectory()
        let textEngine = try TextEngine()
        let renderer = CompositorRenderer(viewport: Size(width: 60, height: 90), scale: 2, textEngine: textEngine,
                                          showsDamage: showsDamage, writesFrames: true, keepsThumbnails: keepsThumbnails)
        let colors: [Color] = [.systemBlue, .systemOrange, .systemGreen, Color(white: 0.2, alpha: 0.5)]
        var expected: [(path: String, image: RasterImage)] = []
        var expectedThumbnails: [RasterImage] = []
        func cell(_ step: Int) -> DisplayList {
            DisplayList([.fill(Rect(x: 0, y: 0, width: 60, height: 22), colors[step % colors.count])])
        }
        renderer.setLayer(0, frame: Rect(x: 0, y: 0, width: 60, height: 90), content: DisplayList([.fill(Rect(x: 0, y: 0, width: 60, height: 90), .white)]))
        for id in 1...3 { renderer.setLayer(id, frame: Rect(x: 0, y: Double(id) * 22, width: 60, height: 22), content: cell(id)) }
        for step in 0..<10 {
            // One cell changes per frame; every third step also renders a frame that is not written,
            // whose damage the next written frame must include.
            renderer.setLayer(1 + step % 3, frame: Rect(x: 0, y: Double(1 + step % 3) * 22, width: 60, height: 22), content: cell(step))
            if step % 3 == 2 {
                _ = renderer.renderFrame()
                renderer.setLayer(1 + (step + 1) % 3, frame: Rect(x: 0, y: Double(1 + (step + 1) % 3) * 22, width: 60, height: 22),
                                  content: cell(step + 2))
            }
            if step == 6 { renderer.removeLayer(2) }
            // A small layer at odd pixel positions: its damage starts and ends inside thumbnail blocks.
            renderer.setLayer(4, frame: Rect(x: 3.5 + Double(step), y: 7.5 + Double(step * 3), width: 10.5, height: 5),
                              content: DisplayList([.fill(Rect(x: 0, y: 0, width: 10.5, height: 5), colors[(step + 1) % colors.count])]))
            _ = renderer.renderFrame()
            let path = dir + "/frame-\(step).png"
            _ = renderer.writeFrame(to: path)
            expected.append((path, renderer.compositor.snapshot()))
            if keepsThumbnails { expectedThumbnails.append(ContactSheet.downscale(renderer.compositor.snapshot(), by: renderer.thumbnailDivisor)) }
        }
        #expect(renderer.finish() == nil)
        // Thumbnails kept from each frame's damage equal downscaling the whole frame.
        #expect(renderer.thumbnails.count == expectedThumbnails.count)
        for (i, (kept, whole)) in zip(renderer.thumbnails, expectedThumbnails).enumerated() {
            #expect(kept.maxChannelDifference(to: whole) == 0, "thumbnail \(i) equals the whole frame downscaled")
        }
        for (path, image) in expected {
            let decoded = try RasterImage.decodePNG(path: path)
            #expect(decoded.maxChannelDifference(to: image) == 0, "\(path) shows the framebuffer as it was queued")
        }
    }

    /// Without a contact sheet the writer copies changed rows from the framebuffer (no snapshot).
    @Test func framesEncodedFromDamageShowTheWholeFramebuffer() throws { try run(showsDamage: false, keepsThumbnails: false) }

    @Test func framesFromSnapshotsForTheContactSheetShowTheWholeFramebuffer() throws {
        try run(showsDamage: false, keepsThumbnails: true)
    }

    @Test func damageTintedFramesShowTheirOwnTintOnly() throws { try run(showsDamage: true, keepsThumbnails: false) }
}
