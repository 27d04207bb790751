/// What a content view draws, recorded as data. Recording is cheap and comparable: the engine
/// compares a cell's new list with its previous one to find damage, and the compositor rasters
/// only what changed. Coordinates are points in the recording view's space; colours are
/// already resolved for the view's traits (no dynamic colours reach the compositor).

/// A run of text laid out inside `frame` with the same rules `TextMeasuring` used to size it.
public struct TextRun: Hashable, Sendable {
    /// The text as drawn (text transform already applied).
    public var text: String
    public var font: Font
    public var color: Color
    public var frame: Rect
    public var alignment: TextAlignment
    public var lineBreakMode: LineBreakMode
    /// 0 = unlimited.
    public var numberOfLines: Int
    public var layoutDirection: LayoutDirection

    public init(text: String, font: Font, color: Color, frame: Rect, alignment: TextAlignment = .natural,
                lineBreakMode: LineBreakMode = .byTruncatingTail, numberOfLines: Int = 0,
                layoutDirection: LayoutDirection = .leftToRight) {
        self.text = text
        self.font = font
        self.color = color
        self.frame = frame
        self.alignment = alignment
        self.lineBreakMode = lineBreakMode
        self.numberOfLines = numberOfLines
        self.layoutDirection = layoutDirection
    }

    public var layoutRequest: TextLayoutRequest {
        TextLayoutRequest(text: text, font: font, numberOfLines: numberOfLines, lineBreakMode: lineBreakMode,
                          layoutDirection: layoutDirection)
    }
}

/// How an image fills its frame.
public enum ContentMode: String, Hashable, Sendable, CaseIterable, Codable {
    case scaleToFill, scaleAspectFit, scaleAspectFill, center
}

public enum DisplayCommand: Hashable, Sendable {
    /// A solid rectangle.
    case fill(Rect, Color)
    /// A solid rectangle with circular corners of `cornerRadius` (clamped to half the short side).
    case roundedRect(Rect, cornerRadius: Double, color: Color)
    /// A stroke of `width` drawn inside `rect` (outer rounded rect minus inner).
    case stroke(Rect, cornerRadius: Double, width: Double, color: Color)
    case text(TextRun)
    /// A symbol image by name, drawn to fit `frame` in `color` at `pointSize`.
    case symbol(name: String, frame: Rect, pointSize: Double, weight: FontWeight, color: Color)
    /// A PNG image scaled into `frame`; `tint` recolours a template image.
    case image(path: String, frame: Rect, contentMode: ContentMode, tint: Color?)
    /// Clips every following command, until the matching `popClip`, to a (rounded) rect.
    case pushClip(Rect, cornerRadius: Double)
    case popClip
    /// Multiplies the alpha of every following command, until the matching `popAlpha`.
    case pushAlpha(Double)
    case popAlpha
    /// Blurs what lies beneath `rect` (a background visual effect) with a Gaussian-like radius.
    case backgroundBlur(Rect, radius: Double, cornerRadius: Double)
    /// A soft shadow of a rounded rect, offset and blurred by `radius`.
    case shadow(Rect, cornerRadius: Double, radius: Double, offset: Point, color: Color)

    /// The area the command can change, in the recording space. Blur and shadow grow by 3×radius,
    /// the reach of a Gaussian that matters at 8-bit precision. Clip and alpha markers touch nothing.
    public var bounds: Rect {
        switch self {
        case .fill(let r, _), .roundedRect(let r, _, _), .stroke(let r, _, _, _): r
        case .text(let run): run.frame
        case .symbol(_, let frame, _, _, _), .image(_, let frame, _, _): frame
        case .pushClip, .popClip, .pushAlpha, .popAlpha: .zero
        case .backgroundBlur(let r, let radius, _): r.insetBy(dx: -3 * radius, dy: -3 * radius)
        case .shadow(let r, _, let radius, let offset, _):
            r.offsetBy(dx: offset.x, dy: offset.y).insetBy(dx: -3 * radius, dy: -3 * radius).union(r)
        }
    }

    /// Whether two commands are equal, read where they are stored. Commands whose bytes are the
    /// same (the same case and payload, down to the very strings and colour tables they share) are
    /// equal without taking them apart; re-recorded commands mostly share those with the last
    /// recording's, and the derived comparison copies both commands.
    static func equal(_ a: UnsafePointer<DisplayCommand>, _ b: UnsafePointer<DisplayCommand>) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        let size = MemoryLayout<DisplayCommand>.size
        var offset = 0
        while offset + 8 <= size, x.load(fromByteOffset: offset, as: UInt64.self) == y.load(fromByteOffset: offset, as: UInt64.self) {
            offset += 8
        }
        if offset + 8 <= size { return equalByValue(a, b) }
        while offset < size {
            if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) {
                return equalByValue(a, b)
            }
            offset += 1
        }
        return true
    }

    /// `==` for commands whose bytes differ. The fills a restyle changes (a highlighted
    /// background) are compared field by field where they are stored; the derived `==` copies
    /// both whole commands first. So are the markers: a case with a small payload (or none)
    /// leaves the rest of the command's bytes as they happened to be, so equal markers often
    /// differ in bytes.
    private static func equalByValue(_ a: UnsafePointer<DisplayCommand>, _ b: UnsafePointer<DisplayCommand>) -> Bool {
        switch a.pointee {
        case .roundedRect(let r, let radius, let color):
            guard case .roundedRect(let r2, let radius2, let color2) = b.pointee else { return false }
            return r == r2 && radius == radius2 && color == color2
        case .fill(let r, let color):
            guard case .fill(let r2, let color2) = b.pointee else { return false }
            return r == r2 && color == color2
        case .pushAlpha(let alpha):
            guard case .pushAlpha(let alpha2) = b.pointee else { return false }
            return alpha == alpha2
        case .pushClip(let r, let radius):
            guard case .pushClip(let r2, let radius2) = b.pointee else { return false }
            return r == r2 && radius == radius2
        case .popAlpha:
            if case .popAlpha = b.pointee { return true }
            return false
        case .popClip:
            if case .popClip = b.pointee { return true }
            return false
        default:
            return a.pointee == b.pointee
        }
    }

    /// The command moved by (dx, dy): how a parent view embeds a child's recording.
    public func offsetBy(dx: Double, dy: Double) -> DisplayCommand {
        switch self {
        case .fill(let r, let c): .fill(r.offsetBy(dx: dx, dy: dy), c)
        case .roundedRect(let r, let radius, let c): .roundedRect(r.offsetBy(dx: dx, dy: dy), cornerRadius: radius, color: c)
        case .stroke(let r, let radius, let w, let c):
            .stroke(r.offsetBy(dx: dx, dy: dy), cornerRadius: radius, width: w, color: c)
        case .text(var run): { run.frame = run.frame.offsetBy(dx: dx, dy: dy); return .text(run) }()
        case .symbol(let n, let f, let p, let w, let c):
            .symbol(name: n, frame: f.offsetBy(dx: dx, dy: dy), pointSize: p, weight: w, color: c)
        case .image(let p, let f, let m, let t): .image(path: p, frame: f.offsetBy(dx: dx, dy: dy), contentMode: m, tint: t)
        case .pushClip(let r, let radius): .pushClip(r.offsetBy(dx: dx, dy: dy), cornerRadius: radius)
        case .popClip, .pushAlpha, .popAlpha: self
        case .backgroundBlur(let r, let radius, let c):
            .backgroundBlur(r.offsetBy(dx: dx, dy: dy), radius: radius, cornerRadius: c)
        case .shadow(let r, let c, let radius, let o, let color):
            .shadow(r.offsetBy(dx: dx, dy: dy), cornerRadius: c, radius: radius, offset: o, color: color)
        }
    }
}

public struct DisplayList: Hashable, Sendable {
    public private(set) var commands: [DisplayCommand] = []
    /// Union of every command's bounds: the pixels this list can touch.
    public private(set) var bounds: Rect = .zero

    public init() {}
    public init(_ commands: [DisplayCommand]) { for c in commands { append(c) } }

    /// Equal commands in the same order (and so the same bounds), compared where they are stored
    /// (`DisplayCommand.equal`).
    public static func == (a: DisplayList, b: DisplayList) -> Bool {
        guard a.commands.count == b.commands.count, a.bounds == b.bounds else { return false }
        return a.commands.withUnsafeBufferPointer { x in
            b.commands.withUnsafeBufferPointer { y in
                x.baseAddress == y.baseAddress || x.indices.allSatisfy { DisplayCommand.equal(x.baseAddress! + $0, y.baseAddress! + $0) }
            }
        }
    }

    public var isEmpty: Bool { commands.isEmpty }

    /// Room for `count` commands, so a recording of known length grows its storage once.
    public mutating func reserveCapacity(_ count: Int) { commands.reserveCapacity(count) }

    /// Empties the list and keeps its storage, for a recording made again and again.
    public mutating func removeAll() {
        commands.removeAllKeepingStorage()
        bounds = .zero
    }

    public mutating func append(_ command: DisplayCommand) {
        commands.append(command)
        bounds = bounds.union(command.bounds)
    }

    /// Appends another view's recording, moved to where that view sits in this one.
    public mutating func append(_ other: DisplayList, offsetBy offset: Point = .zero) {
        guard offset == .zero else {
            commands.reserveCapacity(commands.count + other.commands.count)
            for c in other.commands { append(c.offsetBy(dx: offset.x, dy: offset.y)) }
            return
        }
        // Unmoved into an empty list: the same list (its storage shared until either changes).
        if commands.isEmpty {
            self = other
            return
        }
        // Unmoved: the commands are copied in one go; the bounds grow command by command, in the
        // same order as appending one at a time (so they are the same to the last bit).
        var grown = bounds
        for i in other.commands.indices { grown = grown.union(other.commands[i].bounds) }
        commands.append(contentsOf: other.commands)
        bounds = grown
    }

    /// Replaces the commands at `range` with `other`'s; answers whether that changed the list
    /// (unchanged, nothing is written; changed, `willChange` runs first). The bounds are grown
    /// again over every command in order, so they equal those of the same commands appended one by
    /// one, to the last bit.
    public mutating func replaceCommands(in range: Range<Int>, with other: DisplayList,
                                         willChange: () -> Void = {}) -> Bool {
        // Read in place through buffers: an array's elements read one by one are copied.
        if range.count == other.commands.count {
            let same = commands.withUnsafeBufferPointer { old in
                other.commands.withUnsafeBufferPointer { new in
                    new.indices.allSatisfy { DisplayCommand.equal(old.baseAddress! + range.lowerBound + $0, new.baseAddress! + $0) }
                }
            }
            if same { return false }
        }
        // Commands replaced by ones covering the same areas (a restyle changes colours) leave the
        // bounds as they were: the same rects grown in the same order.
        let sameAreas = range.count == other.commands.count && commands.withUnsafeBufferPointer { old in
            other.commands.withUnsafeBufferPointer { new in
                new.indices.allSatisfy { old[range.lowerBound + $0].bounds == new[$0].bounds }
            }
        }
        willChange()
        commands.replaceSubrange(range, with: other.commands)
        if sameAreas { return true }
        bounds = commands.withUnsafeBufferPointer { commands in
            var grown = Rect.zero
            for i in commands.indices { grown = grown.union(commands[i].bounds) }
            return grown
        }
        return true
    }

    public func offsetBy(dx: Double, dy: Double) -> DisplayList {
        var moved = DisplayList()
        moved.append(self, offsetBy: Point(x: dx, y: dy))
        return moved
    }

    /// The area that differs between two recordings placed at the same origin: nothing when they
    /// are equal, otherwise the union of both lists' bounds (a changed colour anywhere may repaint
    /// everything the command covers, and clips/alpha affect what follows them).
    public static func damage(from old: DisplayList, to new: DisplayList) -> Rect {
        damage(from: old, to: new, differ: old != new)
    }

    /// The same for a caller that has compared the two lists already (`differ`: `old != new`).
    public static func damage(from old: DisplayList, to new: DisplayList, differ: Bool) -> Rect {
        damage(fromBounds: old.bounds, toBounds: new.bounds, differ: differ)
    }

    /// The same from the two lists' bounds (the old list may be gone, patched in place).
    public static func damage(fromBounds old: Rect, toBounds new: Rect, differ: Bool) -> Rect {
        differ ? old.union(new) : .zero
    }
}
