import Testing
@testable import CellKit

@Suite struct GeometryTests {
    @Test func unionIgnoresEmptyRects() {
        let a = Rect(x: 10, y: 10, width: 20, height: 20)
        #expect(a.union(.zero) == a)
        #expect(Rect.zero.union(a) == a)
        #expect(a.union(Rect(x: 40, y: 0, width: 10, height: 5)) == Rect(x: 10, y: 0, width: 40, height: 30))
    }

    @Test func intersectionOfDisjointRectsIsEmpty() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersection(Rect(x: 10, y: 0, width: 5, height: 5)).isEmpty)
        #expect(a.intersection(Rect(x: 5, y: 5, width: 10, height: 10)) == Rect(x: 5, y: 5, width: 5, height: 5))
    }

    @Test func integralSnapsOutwardToThePixelGrid() {
        let r = Rect(x: 0.2, y: 0.4, width: 10.1, height: 3)
        #expect(r.integral(scale: 1) == Rect(x: 0, y: 0, width: 11, height: 4))
        #expect(r.integral(scale: 2) == Rect(x: 0, y: 0, width: 10.5, height: 3.5))
    }

    @Test func directionalInsetsFlipInRightToLeft() {
        let insets = DirectionalEdgeInsets(top: 1, leading: 16, bottom: 2, trailing: 8)
        #expect(insets.absolute(for: .leftToRight) == EdgeInsets(top: 1, left: 16, bottom: 2, right: 8))
        #expect(insets.absolute(for: .rightToLeft) == EdgeInsets(top: 1, left: 8, bottom: 2, right: 16))
    }

    @Test func mirroringMovesARectToTheOtherSide() {
        #expect(Rect(x: 16, y: 4, width: 24, height: 24).mirrored(inWidth: 390) == Rect(x: 350, y: 4, width: 24, height: 24))
    }
}
