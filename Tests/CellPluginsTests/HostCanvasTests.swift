import Testing
import CellKit
@testable import CellPlugins

/// An embedded list view's recording goes onto a plugin's canvas in one piece when its groups
/// open and close inside it and fit under the canvas's open-group limit; the canvas must end up
/// exactly as appending the moved commands one at a time (as the plugin's own calls) leaves it.
@Suite struct HostCanvasTests {
    static let text = DisplayCommand.text(TextRun(text: "Inbox", font: Font(pointSize: 17), color: .black,
                                                  frame: Rect(x: 20, y: 11.5, width: 120, height: 20.33)))

    /// (commands the plugin drew before, the host recording) → the list after appending the
    /// recording whole and one command at a time, both then closed.
    static func both(before: [DisplayCommand], recording: [DisplayCommand], offset: Point) -> (DisplayList, DisplayList) {
        func run(_ whole: Bool) -> DisplayList {
            var list = DisplayList()
            list.append(.fill(Rect(x: 0, y: 0, width: 300, height: 44), .white))
            withUnsafeMutablePointer(to: &list) { pointer in
                var canvas = HostCanvas(list: pointer, layoutDirection: .leftToRight)
                for c in before { canvas.append(c) }
                let host = DisplayList(recording)
                if whole {
                    canvas.append(contentsOf: host, offsetBy: offset)
                } else {
                    for c in host.commands { canvas.append(c.offsetBy(dx: offset.x, dy: offset.y)) }
                }
                canvas.append(.fill(Rect(x: 1, y: 2, width: 3, height: 4), .black))
                canvas.closeOpenGroups()
            }
            return list
        }
        return (run(true), run(false))
    }

    @Test(arguments: [Point.zero, Point(x: 12.5, y: 3)])
    func aRecordingAppendsAsItsCommandsOneByOne(offset: Point) {
        let clip = DisplayCommand.pushClip(Rect(x: 0, y: 0, width: 50, height: 20), cornerRadius: 4)
        let cases: [(before: [DisplayCommand], recording: [DisplayCommand])] = [
            ([], [Self.text]),
            ([], []),
            ([.pushAlpha(0.5)], [.pushAlpha(0.7), Self.text, .popAlpha]),
            ([clip], [clip, .pushAlpha(0.7), Self.text, .popAlpha, .popClip]),
            // Deeper than the canvas allows: pushes past 64 open groups are dropped, with their pops.
            (Array(repeating: .pushAlpha(0.9), count: 63), [.pushAlpha(0.7), clip, Self.text, .popClip, .popAlpha]),
            // Exactly at the limit: taken whole.
            (Array(repeating: .pushAlpha(0.9), count: 62), [.pushAlpha(0.7), clip, Self.text, .popClip, .popAlpha]),
            // Unbalanced or mismatched: pops that would close the plugin's groups, or the wrong kind.
            ([.pushAlpha(0.5)], [Self.text, .popAlpha]),
            ([clip], [.pushAlpha(0.7), .popClip, Self.text]),
            ([], [.pushAlpha(0.7), Self.text]),
        ]
        for (before, recording) in cases {
            let (whole, single) = Self.both(before: before, recording: recording, offset: offset)
            #expect(whole.commands == single.commands, "before \(before.count) commands, recording \(recording)")
            #expect(whole.bounds.minX.bitPattern == single.bounds.minX.bitPattern)
            #expect(whole.bounds.width.bitPattern == single.bounds.width.bitPattern)
            #expect(whole.bounds.height.bitPattern == single.bounds.height.bitPattern)
        }
    }

    /// What a canvas checks before taking a recording whole: its groups balanced, innermost
    /// closed first, and how deep they nest.
    @Test func recordingGroupsNestAsTheirCommands() {
        let clip = DisplayCommand.pushClip(Rect(x: 0, y: 0, width: 50, height: 20), cornerRadius: 4)
        func groups(_ commands: [DisplayCommand]) -> (Bool, Int) {
            let g = RecordingGroups(DisplayList(commands))
            return (g.isBalanced, g.depth)
        }
        #expect(groups([]) == (true, 0))
        #expect(groups([Self.text]) == (true, 0))
        #expect(groups([.pushAlpha(0.7), clip, Self.text, .popClip, .popAlpha]) == (true, 2))
        #expect(groups([clip, .popClip, .pushAlpha(0.5), .popAlpha]) == (true, 1))
        #expect(groups([Self.text, .popAlpha]).0 == false)
        #expect(groups([.pushAlpha(0.7), .popClip]).0 == false)
        #expect(groups([.pushAlpha(0.7), Self.text]).0 == false)
        let deep = Array(repeating: DisplayCommand.pushAlpha(0.9), count: 70) + Array(repeating: .popAlpha, count: 70)
        #expect(groups(deep).1 > 64, "no canvas takes it whole")
        let limit = Array(repeating: DisplayCommand.pushAlpha(0.9), count: 64) + Array(repeating: .popAlpha, count: 64)
        #expect(groups(limit) == (true, 64))
    }
}
