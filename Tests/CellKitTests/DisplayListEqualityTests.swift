import Testing
@testable import CellKit

/// `DisplayList ==` takes commands whose bytes are the same as equal and compares the rest case
/// by case; it must answer exactly what comparing the commands one by one answers.
@Suite struct DisplayListEqualityTests {
    /// A command of every kind, its strings made at run time so two calls share no storage.
    static func commands(_ seed: Int, zero: Double = 0) -> [DisplayCommand] {
        let r = Rect(x: Double(seed) + zero, y: 2, width: 30, height: 11.5)
        let name = String(repeating: "n", count: 20) + String(seed)
        return [
            .pushClip(r, cornerRadius: 4),
            .fill(r, Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)),
            .roundedRect(r, cornerRadius: 3, color: .systemGray4),
            .stroke(r, cornerRadius: 2, width: 1, color: .separator),
            .text(TextRun(text: "A title long enough for heap storage " + String(seed), font: Font(pointSize: 17), color: .label, frame: r)),
            .symbol(name: name, frame: r, pointSize: 17, weight: .semibold, color: .tintColor),
            .image(path: "/tmp/" + name + ".png", frame: r, contentMode: .scaleAspectFit, tint: nil),
            .pushAlpha(0.5), .popAlpha,
            .backgroundBlur(r, radius: 20, cornerRadius: 10),
            .shadow(r, cornerRadius: 10, radius: 8, offset: Point(x: 0, y: 2), color: .black),
            .popClip,
        ]
    }

    static func commandwise(_ a: DisplayList, _ b: DisplayList) -> Bool {
        a.commands.count == b.commands.count && zip(a.commands, b.commands).allSatisfy { $0 == $1 } && a.bounds == b.bounds
    }

    @Test func listsAreEqualExactlyWhenTheirCommandsAre() {
        let base = Self.commands(1)
        let pairs: [(DisplayList, DisplayList)] = [
            (DisplayList(base), DisplayList(base)),                       // shared strings: equal bytes
            (DisplayList(base), DisplayList(Self.commands(1))),           // equal values, separate storage
            (DisplayList(base), DisplayList(Self.commands(1, zero: -0.0))), // −0 == +0, different bytes
            (DisplayList(base), DisplayList(Self.commands(2))),
            (DisplayList(base), DisplayList(Array(base.dropLast()))),
            (DisplayList(), DisplayList()),
        ] + base.indices.map { i in
            var changed = base
            changed[i] = .fill(Rect(x: 9, y: 9, width: 1, height: 1), .white)
            return (DisplayList(base), DisplayList(changed))
        }
        for (a, b) in pairs {
            #expect((a == b) == Self.commandwise(a, b), "\(a.commands.count) vs \(b.commands.count) commands")
            #expect((b == a) == Self.commandwise(b, a))
            if a == b { #expect(a.hashValue == b.hashValue) }
        }
        let list = DisplayList(base)
        #expect(list == list)
    }

    /// A colour whose name is made at run time (no shared storage between two calls).
    static func named(_ suffix: String, dark: Double = 0.9) -> Color {
        Color(name: String(repeating: "c", count: 20) + suffix, light: RGBA(red: 0.1, green: 0.2, blue: 0.3),
              dark: RGBA(red: dark, green: dark, blue: dark))
    }

    /// Fills and rounded rects whose bytes differ are compared field by field: equal values in
    /// other storage (or −0 for +0) are equal, another case, rect, radius, name or variant is not.
    @Test func fillsWithDifferentBytesCompareByValue() {
        let r = Rect(x: 1, y: 2, width: 30, height: 11.5), moved = Rect(x: 1, y: 2.5, width: 30, height: 11.5)
        let pairs: [(DisplayCommand, DisplayCommand)] = [
            (.roundedRect(r, cornerRadius: 0.0, color: Self.named("x")), .roundedRect(r, cornerRadius: -0.0, color: Self.named("x"))),
            (.roundedRect(r, cornerRadius: 4, color: Self.named("x")), .roundedRect(r, cornerRadius: 4, color: Self.named("y"))),
            (.roundedRect(r, cornerRadius: 4, color: Self.named("x")), .roundedRect(r, cornerRadius: 5, color: Self.named("x"))),
            (.roundedRect(r, cornerRadius: 4, color: Self.named("x")), .roundedRect(moved, cornerRadius: 4, color: Self.named("x"))),
            (.roundedRect(r, cornerRadius: 4, color: Self.named("x")), .roundedRect(r, cornerRadius: 4, color: Self.named("x", dark: 0.8))),
            (.fill(r, Self.named("x")), .fill(r, Self.named("x"))),
            (.fill(r, Self.named("x")), .fill(moved, Self.named("x"))),
            (.fill(r, Self.named("x")), .fill(r, Self.named("x", dark: 0.8))),
            (.fill(r, Self.named("x")), .roundedRect(r, cornerRadius: 0, color: Self.named("x"))),
            (.roundedRect(r, cornerRadius: 0, color: Self.named("x")), .fill(r, Self.named("x"))),
            (.fill(r, Self.named("x")), .popClip),
        ]
        for (a, b) in pairs {
            let (x, y) = (DisplayList([a]), DisplayList([b]))
            #expect((x == y) == (a == b), "\(a) vs \(b)")
            #expect((y == x) == (b == a))
        }
        #expect(pairs.filter { DisplayList([$0.0]) == DisplayList([$0.1]) }.count == 2, "the −0 radius and the separate storage")
    }

    /// Markers whose unused bytes differ (a case with a small payload leaves the rest of the
    /// command as the memory held it) are compared by value: equal markers are equal, and a
    /// marker against another case or another alpha or clip is not.
    @Test func markersWithDifferentSpareBytesCompareByValue() {
        let r = Rect(x: 1, y: 2, width: 30, height: 11.5)
        let commands: [DisplayCommand] = [.popAlpha, .popClip, .pushAlpha(0.7), .pushAlpha(1), .pushClip(r, cornerRadius: 4),
                                          .pushClip(r, cornerRadius: 0), .fill(r, .white)]
        let size = MemoryLayout<DisplayCommand>.size
        func placed(_ command: DisplayCommand, over garbage: UInt8) -> UnsafeMutablePointer<DisplayCommand> {
            let p = UnsafeMutablePointer<DisplayCommand>.allocate(capacity: 1)
            UnsafeMutableRawPointer(p).initializeMemory(as: UInt8.self, repeating: garbage, count: size)
            p.initialize(to: command)
            return p
        }
        for a in commands {
            for b in commands {
                let (x, y) = (placed(a, over: 0xAA), placed(b, over: 0x55))
                defer { x.deinitialize(count: 1).deallocate(); y.deinitialize(count: 1).deallocate() }
                #expect(DisplayCommand.equal(x, y) == (a == b), "\(a) vs \(b)")
            }
        }
    }
}
