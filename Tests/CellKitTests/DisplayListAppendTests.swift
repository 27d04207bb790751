import Testing
@testable import CellKit

/// Appending a recording unmoved copies its commands in one go; the list must be what appending
/// them one at a time gives, bounds to the last bit (damage is computed from them).
@Suite struct DisplayListAppendTests {
    /// Rects at fractional points, as text frames and separators sit (thirds of a point).
    static func rect(_ i: Int) -> Rect {
        Rect(x: Double(i) / 3 + 0.1, y: Double(i * 7 % 11) / 3, width: 40.0 / Double(i + 3), height: Double(i) * 1.7 + 0.3)
    }

    @Test func anUnmovedRecordingAppendsAsItsCommandsOneByOne() {
        for count in 0..<12 {
            var recording = DisplayList()
            for i in 0..<count {
                recording.append(i % 3 == 0 ? .fill(Self.rect(i), .black)
                                 : i % 3 == 1 ? .pushClip(Self.rect(i), cornerRadius: 2) : .roundedRect(Self.rect(i), cornerRadius: 3, color: .white))
            }
            var bulk = DisplayList([.fill(Rect(x: 0.25, y: 0.5, width: 9.75, height: 3.1), .white)])
            var single = bulk
            bulk.append(recording)
            for c in recording.commands { single.append(c) }
            #expect(bulk.commands == single.commands)
            #expect(bulk.bounds.minX.bitPattern == single.bounds.minX.bitPattern)
            #expect(bulk.bounds.minY.bitPattern == single.bounds.minY.bitPattern)
            #expect(bulk.bounds.width.bitPattern == single.bounds.width.bitPattern)
            #expect(bulk.bounds.height.bitPattern == single.bounds.height.bitPattern)
        }
    }

    /// Into an empty list the recording itself is taken (its storage shared); the list is still
    /// the one appending its commands one by one builds, and changing either leaves the other.
    @Test func anUnmovedRecordingIntoAnEmptyListIsThatRecording() {
        var recording = DisplayList()
        for i in 0..<7 { recording.append(.roundedRect(Self.rect(i), cornerRadius: 3, color: .white)) }
        var taken = DisplayList()
        taken.append(recording)
        var single = DisplayList()
        for c in recording.commands { single.append(c) }
        #expect(taken == single)
        #expect(taken.bounds.width.bitPattern == single.bounds.width.bitPattern)
        #expect(taken.bounds.height.bitPattern == single.bounds.height.bitPattern)
        taken.append(.fill(Self.rect(9), .black))
        #expect(recording.commands.count == 7 && taken.commands.count == 8)
    }

    @Test func aMovedRecordingMovesEveryCommand() {
        let recording = DisplayList([.fill(Self.rect(1), .black), .popClip])
        var list = DisplayList()
        list.append(recording, offsetBy: Point(x: 5, y: 7))
        #expect(list.commands == [.fill(Self.rect(1).offsetBy(dx: 5, dy: 7), .black), .popClip])
        #expect(list.bounds == Self.rect(1).offsetBy(dx: 5, dy: 7))
    }
}
