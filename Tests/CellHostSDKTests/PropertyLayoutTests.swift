import Testing
@testable import CellHostSDK

/// A configuration with a property of every kind the SDK supports, and one computed property.
private struct EveryKindCell: PluginCell {
    typealias View = EveryKindView
    static let typeIdentifier = "com.cellhost.tests.every-kind"
    static let properties: [CellProperty<EveryKindCell>] = [
        .bool("flag", \.flag),
        .int64("count", \.count),
        .double("ratio", \.ratio),
        .string("title", \.title),
        .color("tint", \.tint),
        .size("size", \.size),
        .insets("insets", \.insets),
        .transformer("transformer", \.transformer),
        .string("shout", \.shout),
    ]

    var flag = false
    var count: Int64 = 0
    var ratio = 0.0
    var title = "quiet"
    var tint = cellhost_color(red: 0, green: 0, blue: 0, alpha: 1)
    var size = cellhost_size(width: 0, height: 0)
    var insets = cellhost_insets(top: 0, leading: 0, bottom: 0, trailing: 0)
    var transformer: cellhost_color_transformer? = nil
    /// Computed: read and written through its key path.
    var shout: String {
        get { title.uppercased() }
        set { title = newValue.lowercased() }
    }

    init() {}
    func updated(for state: PluginState) -> EveryKindCell { self }
    static func == (a: EveryKindCell, b: EveryKindCell) -> Bool { a.count == b.count && a.title == b.title }
}

private final class EveryKindView: PluginCellView {
    var configuration: EveryKindCell
    init(configuration: EveryKindCell) { self.configuration = configuration }
    func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size { target }
    func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {}
}

private let invert: cellhost_color_transformer = { c in cellhost_color(red: 1 - c.red, green: 1 - c.green, blue: 1 - c.blue, alpha: c.alpha) }

/// Property reads and writes of Swift plugins go through byte offsets of stored properties
/// (key paths only for computed ones): each kind must read back what was written, as the key
/// path sees it.
struct PropertyLayoutTests {
    private let layout = PropertyLayout(EveryKindCell.self)

    private func index(_ name: String) throws -> Int {
        try #require(EveryKindCell.properties.firstIndex { $0.name == name })
    }

    private func write<T>(_ box: AnyConfigBox, _ name: String, _ value: T) throws {
        let i = try index(name)
        withUnsafePointer(to: value) { box.write(i, from: UnsafeRawPointer($0)) }
    }

    private func read<T>(_ box: AnyConfigBox, _ name: String, as _: T.Type) throws -> T {
        let i = try index(name)
        return withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment) { slot in
            box.read(i, into: slot.baseAddress!)
            return slot.baseAddress!.load(as: T.self)
        }
    }

    @Test func storedPropertiesHaveOffsetsAndComputedOnesDoNot() {
        let offsets = Dictionary(uniqueKeysWithValues: layout.slots.map { ($0.name, $0.offset) })
        for name in ["flag", "count", "ratio", "title", "tint", "size", "insets", "transformer"] {
            #expect(offsets[name]! != nil, "\(name)")
        }
        #expect(offsets["shout"]! == nil)
    }

    @Test func everyKindReadsBackWhatWasWritten() throws {
        let box = ConfigBox(EveryKindCell(), layout: layout)
        try write(box, "flag", true)
        try write(box, "count", Int64(-42))
        try write(box, "ratio", 0.25)
        try write(box, "tint", cellhost_color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        try write(box, "size", cellhost_size(width: 30, height: 44))
        try write(box, "insets", cellhost_insets(top: 1, leading: 2, bottom: 3, trailing: 4))
        try write(box, "transformer", Optional(invert))
        try "Inbox".withCString { try write(box, "title", Optional($0)) }

        // What the value holds, through its key paths.
        let cell = box.value
        #expect(cell.flag && cell.count == -42 && cell.ratio == 0.25 && cell.title == "Inbox")
        #expect(cell.tint.red == 0.1 && cell.tint.green == 0.2 && cell.tint.blue == 0.3 && cell.tint.alpha == 0.4)
        #expect(cell.size.width == 30 && cell.size.height == 44)
        #expect(cell.insets.top == 1 && cell.insets.leading == 2 && cell.insets.bottom == 3 && cell.insets.trailing == 4)
        #expect(cell.transformer.map { $0(cellhost_color(red: 1, green: 0, blue: 0, alpha: 1)).green } == 1)

        // What a C getter is handed.
        #expect(try read(box, "flag", as: Bool.self))
        #expect(try read(box, "count", as: Int64.self) == -42)
        #expect(try read(box, "ratio", as: Double.self) == 0.25)
        #expect(try read(box, "tint", as: cellhost_color.self).blue == 0.3)
        #expect(try read(box, "size", as: cellhost_size.self).height == 44)
        #expect(try read(box, "insets", as: cellhost_insets.self).trailing == 4)
        #expect(try read(box, "transformer", as: cellhost_color_transformer?.self) != nil)
        let title = try #require(try read(box, "title", as: UnsafePointer<CChar>?.self))
        #expect(String(cString: title) == "Inbox")

        #expect(box.customized == ["flag", "count", "ratio", "title", "tint", "size", "insets", "transformer"])
    }

    @Test func computedPropertiesGoThroughTheirKeyPaths() throws {
        let box = ConfigBox(EveryKindCell(), layout: layout)
        let shouted = try #require(try read(box, "shout", as: UnsafePointer<CChar>?.self))
        #expect(String(cString: shouted) == "QUIET")
        try "LOUD".withCString { try write(box, "shout", Optional($0)) }
        #expect(box.value.title == "loud")
        #expect(box.customized == ["shout"])
    }

    @Test func restyledAndCopiedBoxesShareTheLayout() throws {
        let box = ConfigBox(EveryKindCell(), layout: layout)
        try write(box, "count", Int64(7))
        let copy = box.copy()
        #expect(copy.layout === layout)
        #expect(try read(copy, "count", as: Int64.self) == 7)
    }
}

extension PropertyLayoutTests {
    /// A restyle keeps every locked property, stored or computed, whatever `updated(for:)` did.
    @Test func restylingKeepsLockedPropertiesOfEveryKind() throws {
        let box = ConfigBox(RestylingCell(), layout: PropertyLayout(RestylingCell.self))
        withUnsafePointer(to: Int64(5)) { box.write(0, from: UnsafeRawPointer($0)) }
        "kept".withCString { text in withUnsafePointer(to: Optional(text)) { box.write(1, from: UnsafeRawPointer($0)) } }
        let state = UnsafeMutablePointer<cellhost_state>.allocate(capacity: 1)
        state.initialize(to: cellhost_state())
        defer { state.deallocate() }
        let restyled = try #require(box.updated(for: PluginState(state)).holding(RestylingCell.self))
        #expect(restyled.value.count == 5 && restyled.value.title == "kept" && restyled.value.ratio == 1)
        let fresh = ConfigBox(RestylingCell(), layout: box.layout)
        let unlocked = try #require(fresh.updated(for: PluginState(state)).holding(RestylingCell.self))
        #expect(unlocked.value.count == 99 && unlocked.value.title == "restyled")
    }
}

/// Restyling overwrites every property, so only the locked ones survive it.
private struct RestylingCell: PluginCell {
    typealias View = RestylingView
    static let typeIdentifier = "com.cellhost.tests.restyling"
    static let properties: [CellProperty<RestylingCell>] = [.int64("count", \.count), .string("title", \.title)]
    var count: Int64 = 0
    var title = ""
    var ratio = 0.0
    init() {}
    func updated(for state: PluginState) -> RestylingCell {
        var cell = self
        cell.count = 99
        cell.title = "restyled"
        cell.ratio = 1
        return cell
    }
}

private final class RestylingView: PluginCellView {
    var configuration: RestylingCell
    init(configuration: RestylingCell) { self.configuration = configuration }
    func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size { target }
    func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {}
}
