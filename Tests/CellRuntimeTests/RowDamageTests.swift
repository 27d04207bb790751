import CellKit
import Testing
@testable import CellRuntime

/// The damage a cell's update record reports: where the redrawn row can have changed pixels.
@Suite struct RowDamageTests {
    static let frame = Rect(x: 0, y: 100, width: 390, height: 44)
    static let oldBounds = Rect(x: 0, y: 0, width: 390, height: 44)
    static let newBounds = Rect(x: 16, y: 8, width: 200, height: 60)

    @Test func aRowThatAppearedDamagesItsFrame() {
        let d = Engine.damage(from: nil, to: Self.frame, oldBounds: .zero, newBounds: Self.newBounds, drawingChanged: nil)
        #expect(d == Self.frame)
    }

    @Test func aRowThatMovedDamagesWhereItWasAndIs() {
        let moved = Self.frame.offsetBy(dx: 0, dy: 44)
        let d = Engine.damage(from: Self.frame, to: moved, oldBounds: Self.oldBounds, newBounds: Self.oldBounds,
                              drawingChanged: nil)
        #expect(d == Rect(x: 0, y: 100, width: 390, height: 88))
    }

    @Test func aRowThatStayedDamagesBothRecordingsWhenTheyDiffer() {
        let d = Engine.damage(from: Self.frame, to: Self.frame, oldBounds: Self.oldBounds, newBounds: Self.newBounds,
                              drawingChanged: true)
        #expect(d == Rect(x: 0, y: 100, width: 390, height: 68), "both bounds, placed at the frame")
    }

    @Test func anUnchangedRowDamagesNothing() {
        let d = Engine.damage(from: Self.frame, to: Self.frame, oldBounds: Self.oldBounds, newBounds: Self.oldBounds,
                              drawingChanged: false)
        #expect(d.isEmpty)
    }
}
