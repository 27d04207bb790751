import CellIO
import CellKit
import Glibc

/// Reads an event stream (JSON Lines) one line at a time, so a stream on stdin is processed as
/// it arrives. The first lines describe the scene (`scene`, `section`, `item`); every line after
/// the first event is an event. Any line may carry a `note`, the comment of strict JSON Lines.
/// Blank lines and lines starting with `#` are skipped too, so hand-written streams stay easy to
/// annotate; they still count for line numbers. An `items` line describes a series of items from
/// templates (ids `row0`, `row1`, …) without writing each out.
///
/// Every mistake is reported with the line and what is wrong, naming the closest valid word. A
/// stream read line by line ends with `finish()`: an id repeated in the scene's last item lines
/// is found there when no event follows them.
public struct EventStreamParser: Sendable {
    public let source: String
    public private(set) var scene = SceneDescription()
    /// True once the first event has been read: from then on, the scene only changes through events.
    public private(set) var sceneIsComplete = false
    public private(set) var eventCount = 0
    /// Ids of live items that are not in the scene's lists: inserted by events, or below an item
    /// in an outline. The scene's own items are found through `sceneItemIndexes`.
    private var itemIDs: Set<String> = []
    /// Per section of the scene, where its written items are by id: a million items written one
    /// per line are looked up in their list, not kept again in a set of their ids.
    private(set) var sceneItemIndexes: [ItemIDIndex] = []
    /// The scene's item series, and the ids of the scene's items (written or of a series) deleted since.
    private var series: [ItemSeries] = []
    private var deletedSceneIDs: Set<String> = []
    /// Reads the commonest item lines without a JSON tree (`ItemLineScanner`).
    private var itemLineScanner = ItemLineScanner()
    /// The shapes (`ItemColumns.shape(of:)`) of the items the scanner read last, each under its
    /// key (`ItemLineScanner.shapeKey(in:)`), so items written alike share one; with where the shape is
    /// numbered in the section list it went to last, so the list need not compare it again.
    private var scannedShapes: [ScannedShape] = []
    private var sectionIDs: Set<String> = []
    private var sawSceneLine = false
    /// Each capture name and the line that took it: a name is a file name, so it is used once.
    private var captureLines: [String: Int] = [:]
    /// Live items that have children in an outline: the items `expand` and `collapse` may name.
    private var outlineParents: Set<String> = []
    /// Each outline parent's descendants: deleting the parent deletes them too.
    private var outlineDescendantIDs: [String: [String]] = [:]

    public init(source: String) { self.source = source }

    /// Parses a whole stream at once (files and tests); `lineOffset` numbers lines after a prefix.
    public static func parse(_ text: String, source: String) throws(EventStreamError) -> (SceneDescription, [Event]) {
        var parser = EventStreamParser(source: source)
        var events: [Event] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let e = try parser.parse(line: String(line), lineNumber: number) { events.append(e) }
        }
        try parser.finish()
        return (parser.scene, events)
    }

    /// Parses one line. Returns the event it holds, or nil for scene lines and comments.
    public mutating func parse(line raw: String, lineNumber: Int) throws(EventStreamError) -> Event? {
        var raw = raw
        var result: Result<Event?, EventStreamError> = .success(nil)
        raw.withUTF8 { bytes in result = Result { () throws(EventStreamError) in try parse(line: bytes, lineNumber: lineNumber) } }
        return try result.get()
    }

    /// Parses one line given as its bytes (UTF-8, without its newline), as `cellhost run` reads
    /// them: the commonest lines are read without making a string of the whole line.
    public mutating func parse(line utf8: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(EventStreamError) -> Event? {
        if sceneIsComplete, let small = SmallEventLine(utf8), itemExists(small.id) {
            eventCount += 1
            return Event(number: eventCount, line: lineNumber, actions: [.cells(CellEvent(targets: [.cell(small.id)], state: small.state))])
        }
        // A carriage return ends a line only as the last byte ("\r" is a character of its own there).
        let text = utf8.last == 0x0D ? UnsafeBufferPointer(rebasing: utf8.dropLast()) : utf8
        let first = text.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard let first, text[first] != UInt8(ascii: "#") else { return nil }
        // An item line of the common form goes straight into the scene; nothing is left to do.
        if !sceneIsComplete, text[first] == UInt8(ascii: "{"), try takeScannedItem(text, line: lineNumber) { return nil }
        // Any other line may look items up or be a mistake, which must come after any earlier one.
        try settleSceneIndexes()
        // Bytes that are not UTF-8 read as a string reads them: each bad sequence one U+FFFD.
        var line = String(decoding: text, as: UTF8.self)
        let json: JSON
        switch line.withUTF8({ JSON.parse(utf8: $0) }) {
        case .success(let value): json = value
        case .failure(let error):
            throw EventStreamError(source: source, line: lineNumber, column: error.column, message: error.reason)
        }
        guard let pairs = json.objectPairs else {
            throw EventStreamError(source: source, line: lineNumber,
                                   message: "each line must be a JSON object, not \(json.kindName)")
        }
        do {
            return try parseLine(pairs, line: lineNumber)
        } catch let message {
            throw EventStreamError(source: source, line: lineNumber, message: message.text)
        }
    }

    // MARK: Line kinds

    static let sceneKeys = ["scene", "section", "item", "items", "matrix"]

    /// A line's kind is its first field other than `note`: a scene line holds that one field and
    /// may hold a `note`, the comment of a stream that stays strict JSON Lines. The note is only
    /// for the reader; the scene keeps nothing of it.
    private mutating func parseLine(_ pairs: [(String, JSON)], line: Int) throws(LineError) -> Event? {
        if let first = pairs.first(where: { $0.0 != "note" }), EventStreamParser.sceneKeys.contains(first.0) {
            if let other = pairs.first(where: { $0.0 != "note" && $0.0 != first.0 }) {
                throw LineError("a \"\(first.0)\" line holds only \"\(first.0)\" and a \"note\"; found also \"\(other.0)\"")
            }
            if let note = pairs.first(where: { $0.0 == "note" })?.1, note.stringValue == nil {
                throw LineError("\"note\" takes a string, not \(note.kindName)")
            }
            guard !sceneIsComplete else {
                throw LineError("\"\(first.0)\" lines describe the scene and must come before the first event"
                    + (first.0 == "item" ? "; use {\"insert\": {…}} to add an item later" : ""))
            }
            switch first.0 {
            case "scene": try parseScene(first.1)
            case "section": try parseSection(first.1, line: line)
            case "items": try parseSceneSeries(first.1, line: line)
            case "matrix": try parseMatrix(first.1, line: line)
            default: try parseSceneItem(first.1, line: line)
            }
            return nil
        }
        if !sceneIsComplete {
            sceneIsComplete = true
            if scene.sections.isEmpty && !sawSceneLine {
                throw LineError("the stream starts with an event; describe the list first with {\"item\": {\"id\": …}} lines")
            }
        }
        eventCount += 1
        return try parseEvent(pairs, line: line, number: eventCount)
    }

    private mutating func parseScene(_ value: JSON) throws(LineError) {
        guard !sawSceneLine && scene.sections.isEmpty else {
            throw LineError("the \"scene\" line must come first and only once")
        }
        sawSceneLine = true
        var fields = try Fields(value, in: "scene")
        if let a = try fields.string("appearance") {
            let names = ListEnvironment.allCases.filter { $0 != .none }.map(\.rawValue)
            guard let env = ListEnvironment(rawValue: a), env != .none else {
                throw LineError("\"\(a)\" is not a list appearance (\(names.joined(separator: ", ")))"
                    + Suggestion.hint(for: a, in: names))
            }
            scene.appearance = env
        }
        if let v = try fields.object("viewport") {
            var vf = try Fields(.object(v), in: "viewport")
            let w = try vf.requiredNumber("width"), h = try vf.requiredNumber("height")
            try vf.finish()
            guard w >= 1, h >= 1, w <= 10_000, h <= 10_000 else {
                throw LineError("viewport \(formatPoints(w))×\(formatPoints(h)) is outside 1…10000 points")
            }
            scene.viewport = Size(width: w, height: h)
        }
        if let s = try fields.number("scale") {
            guard [1, 2, 3].contains(s) else { throw LineError("\"scale\" must be 1, 2 or 3, not \(formatPoints(s))") }
            scene.traits.displayScale = s
        }
        if let t = try fields.object("traits") {
            try parseTraits(.object(t)).apply(to: &scene.traits)
        }
        if let t = try fields.object("tolerance") { scene.imageTolerance = try parseTolerance(t) }
        if let s = fields.take("separators") { scene.separators = try parseSeparators(s, base: nil) }
        try fields.finish()
        scene.traits.listEnvironment = scene.appearance
    }

    /// `"tolerance": {"channel": 2, "pixels": 0.001}`: how far `cellhost test` lets captures stray.
    private func parseTolerance(_ pairs: [(String, JSON)]) throws(LineError) -> ImageTolerance {
        var f = try Fields(.object(pairs), in: "tolerance", known: ["channel", "pixels"])
        try f.rejectUnknown()
        var tolerance = ImageTolerance.exact
        if let c = try f.integer("channel") {
            guard (0...255).contains(c) else { throw LineError("\"channel\" is a channel difference 0…255, not \(c)") }
            tolerance.channel = c
        }
        if let p = try f.number("pixels") {
            guard (0...1).contains(p) else { throw LineError("\"pixels\" is a fraction of the pixels, 0…1, not \(p)") }
            tolerance.pixelFraction = p
        }
        try f.finish()
        return tolerance
    }

    /// `{"matrix": {"style": ["light", "dark"], "contentSize": ["L", "AX3"]}}`: each key a scene
    /// trait, each value a list of what that trait takes; `cellhost test` runs every combination.
    private mutating func parseMatrix(_ value: JSON, line: Int) throws(LineError) {
        guard scene.matrix == nil else { throw LineError("the stream has a \"matrix\" line already (line \(scene.matrix!.line))") }
        guard let pairs = value.objectPairs, !pairs.isEmpty else {
            throw LineError("\"matrix\" takes an object of traits, each with a list of values, like {\"style\": [\"light\", \"dark\"]}")
        }
        var axes: [TraitMatrix.Axis] = []
        var traitsSeen: [String: String] = [:]
        for (key, list) in pairs {
            let trait = TraitMatrix.aliases[key] ?? key
            guard EventStreamParser.traitKeys.contains(trait) else {
                let names = EventStreamParser.traitKeys + TraitMatrix.aliases.keys.sorted()
                throw LineError("\"\(key)\" is not a trait of \"matrix\" (\(names.joined(separator: ", ")))"
                    + Suggestion.hint(for: key, in: names))
            }
            if let other = traitsSeen[trait] { throw LineError("matrix \"\(key)\" and \"\(other)\" name the same trait") }
            traitsSeen[trait] = key
            guard let items = list.arrayValue, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                throw LineError("matrix \"\(key)\" takes a non-empty list of names, not \(list.serialized)")
            }
            var values: [(name: String, change: TraitChange)] = []
            for item in items {
                let name = item.stringValue!
                guard !values.contains(where: { $0.name == name }) else { throw LineError("matrix \"\(key)\" lists \"\(name)\" twice") }
                guard !name.isEmpty, name.allSatisfy(TraitMatrix.isNamePart) else {
                    throw LineError("matrix value \"\(name)\" becomes part of file names: use letters, digits and \"_\" only")
                }
                values.append((name, try parseTraits(.object([(trait, item)]))))
            }
            axes.append(TraitMatrix.Axis(key: key, values: values))
        }
        scene.matrix = TraitMatrix(axes: axes, line: line)
    }

    private mutating func parseSection(_ value: JSON, line: Int) throws(LineError) {
        var fields = try Fields(value, in: "section")
        let id = try fields.requiredString("id")
        guard !sectionIDs.contains(id) else { throw LineError("section \"\(id)\" is already defined") }
        let header = try parseHeaderFooter(fields.take("header"), "header", section: id, line: line)
        let footer = try parseHeaderFooter(fields.take("footer"), "footer", section: id, line: line)
        try fields.finish()
        sectionIDs.insert(id)
        var section = SectionDescription(id: id, header: header?.text, footer: footer?.text, line: line)
        section.headerContent = header?.content
        section.footerContent = footer?.content
        scene.sections.append(section)
        sceneItemIndexes.append(ItemIDIndex())
    }

    /// A section's `"header"` / `"footer"`: a text in the list's default style, or an object
    /// as an item describes its configuration — `type` (a plugin's, or list content), `style`
    /// (any list content style), `set`, `background`.
    private func parseHeaderFooter(_ value: JSON?, _ key: String, section: String, line: Int) throws(LineError)
        -> (text: String, content: ItemDescription?)? {
        guard let value else { return nil }
        if let text = value.stringValue { return (text, nil) }
        guard value.objectPairs != nil else {
            throw LineError("\"\(key)\" takes a text or an object with \"type\", \"style\", \"set\", \"background\", not \(value.kindName)")
        }
        var f = try Fields(value, in: key, known: ["type", "style", "set", "background"])
        try f.rejectUnknown()
        let content = try parseItem(&f, id: key + ":" + section, line: line)
        try f.finish()
        return ("", content)
    }

    private mutating func parseSceneItem(_ value: JSON, line: Int) throws(LineError) {
        var fields = try Fields(value, in: "item")
        let sectionID = try fields.string("section")
        let item = try parseItem(&fields, line: line)
        try fields.finish()
        let i = try sceneSectionIndex(sectionID, line: line)
        scene.sections[i].items.append(item)
        sceneItemIndexes[i].add(scene.sections[i].items.count - 1, of: scene.sections[i].items)
        noteOutline(of: item)
    }

    /// Ends the stream: the scene's last item lines are checked for repeated ids here when no
    /// event follows them (an event's line checks them first).
    public mutating func finish() throws(EventStreamError) {
        try settleSceneIndexes()
    }

    /// Checks the ids the scene's item lines entered unchecked (`ItemIDIndex.settle(in:)`): a
    /// repeated id is the error of the first line that repeats one.
    private mutating func settleSceneIndexes() throws(EventStreamError) {
        var first: (line: Int, message: String)?
        for s in sceneItemIndexes.indices {
            let items = scene.sections[s].items
            guard let repeated = sceneItemIndexes[s].settle(in: items).first else { continue }
            let line = items.line(at: repeated.index)
            if first.map({ line < $0.line }) ?? true {
                first = (line, repeatedIDMessage(items.id(at: repeated.index), firstLine: items.line(at: repeated.firstIndex)))
            }
        }
        if let first { throw EventStreamError(source: source, line: first.line, message: first.message) }
    }

    /// Takes an item line of the common form (`ItemLineScanner`) straight into the scene's
    /// columns; false when the line is not of that form or holds anything the full parser
    /// would refuse or read differently (it then reads the line and reports the mistake). Its
    /// id is checked against the section's earlier ids later, with others (`settleSceneIndexes`).
    private mutating func takeScannedItem(_ text: UnsafeBufferPointer<UInt8>, line: Int) throws(EventStreamError) -> Bool {
        guard itemLineScanner.scan(text), !itemLineScanner.id.isEmpty else { return false }
        let shapeIndex: Int
        if let found = scannedShapes.lastIndex(where: { itemLineScanner.hasShapeKey($0.key, in: text) }) {
            shapeIndex = found
        } else {
            guard let shape = scannedShape(text) else { return false }
            if scannedShapes.count == ItemColumns.maximumShapes { scannedShapes.removeFirst() }
            scannedShapes.append(ScannedShape(key: itemLineScanner.shapeKey(in: text), shape: shape))
            shapeIndex = scannedShapes.count - 1
        }
        let id = String(decoding: UnsafeBufferPointer(rebasing: text[itemLineScanner.id]), as: UTF8.self)
        guard let i = try? sceneSectionIndex(nil, line: line), !itemExists(id, outsideSection: i) else { return false }
        sceneItemIndexes[i].enter(id, at: scene.sections[i].items.count, in: scene.sections[i].items)
        // Each value is made as it goes into the columns, not gathered first.
        let values = itemLineScanner.propertyValues(in: text)
        var appended = false
        if scannedShapes[shapeIndex].section == i, let known = scannedShapes[shapeIndex].place {
            appended = scene.sections[i].items.append(known: known, id: id, line: line, values: values)
        }
        if !appended {
            scannedShapes[shapeIndex].place = scene.sections[i].items.append(shape: scannedShapes[shapeIndex].shape, id: id, line: line,
                                                                             values: Array(values))
            scannedShapes[shapeIndex].section = i
        }
        if sceneItemIndexes[i].needsSettling { try settleSceneIndexes() }
        return true
    }

    /// A shape the scanner read (under its `ItemLineScanner.shapeKey(in:)`), and where it is
    /// numbered in section `section`'s list.
    private struct ScannedShape {
        let key: [UInt8]
        let shape: ItemDescription
        var section: Int?
        var place: ItemList.ColumnsShape?
    }

    /// The shape of the item line the scanner took, nil when the full parser must read the line:
    /// a style that is not a list content style, or a string the full parser reads further
    /// (colours are parsed and image paths looked at).
    private func scannedShape(_ text: UnsafeBufferPointer<UInt8>) -> ItemDescription? {
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        }
        let scan = itemLineScanner
        let scannedValues = scan.values.map { $0.propertyValue(in: text) }
        for (name, value) in zip(scan.names, scannedValues) where ItemColumns.isString(value) {
            let bytes = UnsafeBufferPointer(rebasing: text[name])
            if Self.endsWithLowercased(bytes, "color") || Self.endsWithLowercased(bytes, "image") { return nil }
        }
        let style = scan.style.map(string)
        if let style, !EventStreamParser.listContentStyles.contains(style) { return nil }
        let item = ItemDescription(id: "", style: style,
                                   properties: zip(scan.names, scannedValues).map { PropertyAssignment(name: string($0), value: $1) })
        return ItemColumns.shape(of: item)
    }

    private static func endsWithLowercased(_ name: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard name.count >= n else { return false }
        return suffix.withUTF8Buffer { s in
            (0..<n).allSatisfy { k in
                let b = name[name.count - n + k]
                return (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) == s[k]
            }
        }
    }

    /// Registers an item's descendants (their ids are live too) and which items have children.
    private mutating func noteOutline(of item: ItemDescription) {
        guard !item.children.isEmpty else { return }
        for parent in [item] + item.outlineDescendants where !parent.children.isEmpty {
            outlineParents.insert(parent.id)
            outlineDescendantIDs[parent.id] = parent.outlineDescendants.map(\.id)
        }
        for d in item.outlineDescendants { itemIDs.insert(d.id) }
    }

    /// The section a scene item line adds to: the named one, else the last (made as "main" when
    /// there is none yet).
    private mutating func sceneSectionIndex(_ sectionID: String?, line: Int) throws(LineError) -> Int {
        if let sectionID {
            guard let i = scene.sections.firstIndex(where: { $0.id == sectionID }) else {
                throw LineError("no section \"\(sectionID)\"" + Suggestion.hint(for: sectionID, in: sectionIDs))
            }
            return i
        }
        if scene.sections.isEmpty {
            scene.sections.append(SectionDescription(id: "main", line: line))
            sceneItemIndexes.append(ItemIDIndex())
            sectionIDs.insert("main")
        }
        return scene.sections.count - 1
    }

    /// The most items one `items` line may describe.
    public static let maximumSeriesCount = 100_000_000

    /// `{"items": {"id": "row{n}", "count": 1000, "from": 0, "templates": [{…}, …]}}`: `count` items
    /// with ids from the pattern (`{n}` = from, from + 1, …), cycling through the templates, each
    /// an item object without an id.
    private mutating func parseSceneSeries(_ value: JSON, line: Int) throws(LineError) {
        var fields = try Fields(value, in: "items")
        let sectionID = try fields.string("section")
        let pattern = try fields.requiredString("id")
        let parts = pattern.split(separator: "{n}", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw LineError("\"items\" \"id\" is a pattern holding {n} once, where each item's number goes (like \"row{n}\"), not \"\(pattern)\"")
        }
        guard let count = try fields.integer("count") else { throw LineError("\"items\" needs \"count\"") }
        guard count >= 1, count <= EventStreamParser.maximumSeriesCount else {
            throw LineError("\"count\" must be 1…\(EventStreamParser.maximumSeriesCount), not \(count)")
        }
        let from = try fields.integer("from") ?? 0
        guard from >= 0, from <= 1_000_000_000_000 else { throw LineError("\"from\" must be 0…1000000000000, not \(from)") }
        guard let list = fields.take("templates") else { throw LineError("\"items\" needs \"templates\": [{…}, …]") }
        guard let objects = list.arrayValue, !objects.isEmpty else {
            throw LineError("\"templates\" takes a non-empty array of item objects (without \"id\"), not \(list.kindName)")
        }
        var templates: [ItemDescription] = []
        for object in objects {
            var f = try Fields(object, in: "template")
            guard !f.has("id") else { throw LineError("a template has no \"id\"; the series' \"id\" pattern names its items") }
            guard !f.has("children") else { throw LineError("a template has no \"children\"; write an outline's items out with \"item\" lines") }
            templates.append(try parseItem(&f, id: pattern, line: line))
            try f.finish()
        }
        try fields.finish()
        let new = ItemSeries(idPrefix: String(parts[0]), idSuffix: String(parts[1]), first: from, count: count, templates: templates)
        for other in series where new.mayShareIDs(with: other) {
            let sameForm = new.idPrefix == other.idPrefix && new.idSuffix == other.idSuffix
            let overlaps = new.first < other.first + other.count && other.first < new.first + new.count
            guard sameForm && !overlaps else {
                throw LineError("items \"\(pattern)\" from \(from) may repeat ids of the series \"\(other.idPrefix){n}\(other.idSuffix)\" from \(other.first) (\(other.count) items); ids must be unique")
            }
        }
        if let taken = liveWrittenIDs.first(where: { new.index(ofID: $0) != nil }) {
            throw LineError("item \"\(taken)\" already exists; the series \"\(pattern)\" would repeat it")
        }
        let i = try sceneSectionIndex(sectionID, line: line)
        scene.sections[i].items.append(new)
        series.append(new)
    }

    /// Whether a live item has this id (written out, inserted, or from a series and not deleted).
    private func itemExists(_ id: String) -> Bool {
        if !itemIDs.isEmpty && itemIDs.contains(id) { return true }
        if !deletedSceneIDs.isEmpty && deletedSceneIDs.contains(id) { return false }
        return sceneItemIndex(of: id) != nil || series.contains { $0.index(ofID: id) != nil }
    }

    /// `itemExists` leaving out the written items of scene section `section` (the caller looks
    /// there itself, entering the id as it looks).
    private func itemExists(_ id: String, outsideSection section: Int) -> Bool {
        if !itemIDs.isEmpty && itemIDs.contains(id) { return true }
        if !deletedSceneIDs.isEmpty && deletedSceneIDs.contains(id) { return false }
        for s in sceneItemIndexes.indices where s != section {
            if sceneItemIndexes[s].index(of: id, in: scene.sections[s].items) != nil { return true }
        }
        return series.contains { $0.index(ofID: id) != nil }
    }

    /// The section and index of the scene's written item `id`.
    private func sceneItemIndex(of id: String) -> (section: Int, index: Int)? {
        for s in sceneItemIndexes.indices {
            if let i = sceneItemIndexes[s].index(of: id, in: scene.sections[s].items) { return (s, i) }
        }
        return nil
    }

    /// The ids of live items written out or inserted (not of series), in the scene's order then
    /// the rest: the candidates for "did you mean".
    private var liveWrittenIDs: [String] {
        var ids: [String] = []
        for section in scene.sections {
            for run in section.items.runs {
                switch run {
                case .items(let items): ids += items.lazy.map(\.id)
                case .columns(let columns): ids += (0..<columns.count).lazy.map(columns.id(at:))
                case .series: continue
                }
            }
        }
        if !deletedSceneIDs.isEmpty { ids.removeAll(where: deletedSceneIDs.contains) }
        return ids + itemIDs.sorted()
    }

    /// The "already exists" message for a repeated id, naming the line that wrote it first.
    private func repeatedIDMessage(_ id: String) -> String {
        repeatedIDMessage(id, firstLine: sceneItemIndex(of: id).map { scene.sections[$0.section].items.line(at: $0.index) })
    }

    private func repeatedIDMessage(_ id: String, firstLine: Int?) -> String {
        "item \"\(id)\" already exists\(firstLine.map { " (line \($0))" } ?? ""); ids must be unique"
    }

    static let itemKeys = ["id", "type", "style", "set", "background", "automaticallyUpdatesContentConfiguration",
                           "automaticallyUpdatesBackgroundConfiguration", "handlers", "handler", "accessories", "swipeActions",
                           "children", "expanded", "separators"]

    /// The fields every item has, in `item` and `insert` lines.
    private func parseItem(_ fields: inout Fields, line: Int) throws(LineError) -> ItemDescription {
        let id = try fields.requiredString("id")
        guard !itemExists(id) else { throw LineError(repeatedIDMessage(id)) }
        return try parseItem(&fields, id: id, line: line)
    }

    /// The fields of an item after its id (also a series' templates).
    private func parseItem(_ fields: inout Fields, id: String, line: Int) throws(LineError) -> ItemDescription {
        var type = try fields.string("type") ?? ItemDescription.listContentType
        if type == "list" { type = ItemDescription.listContentType }
        if type != ItemDescription.listContentType && !type.contains(".") {
            throw LineError("type \"\(type)\" is neither \"list\" nor a plugin's reverse-DNS type id (like \"com.example.badge\")")
        }
        let style = try fields.string("style")
        if let style, type == ItemDescription.listContentType, !EventStreamParser.listContentStyles.contains(style) {
            throw LineError("\"\(style)\" is not a list content style (\(EventStreamParser.listContentStyles.joined(separator: ", ")))"
                + Suggestion.hint(for: style, in: EventStreamParser.listContentStyles))
        }
        let properties = try fields.object("set").map { p throws(LineError) in try parseAssignments(p) } ?? []
        var background: BackgroundDescription?
        if let b = fields.take("background") {
            background = try parseBackground(b)
        }
        let autoContent = try fields.bool("automaticallyUpdatesContentConfiguration") ?? true
        let autoBackground = try fields.bool("automaticallyUpdatesBackgroundConfiguration") ?? true
        var handlers: [UpdateHandlerRule] = []
        if let h = fields.take("handlers") {
            handlers = try parseHandlerRules(h, key: "handlers")
        }
        var handlerForm = UpdateHandlerForm.modify
        if let h = fields.take("handler") {
            guard handlers.isEmpty else { throw LineError("an item takes \"handler\" or \"handlers\", not both") }
            var hf = try Fields(h, in: "handler")
            guard let form = try hf.enumValue("form", UpdateHandlerForm.self) else {
                throw LineError("\"handler\" needs \"form\": \"fresh\" (a new configuration each pass) or \"modify\" (the cell's stored one)")
            }
            handlerForm = form
            handlers = try hf.take("rules").map { r throws(LineError) in try parseHandlerRules(r, key: "rules") } ?? []
            try hf.finish()
        }
        var decorations = CellDecorations()
        if let a = fields.take("accessories") { decorations.accessories = try EventStreamParser.parseAccessories(a) }
        if let s = fields.take("swipeActions") { try EventStreamParser.parseSwipeActions(s, into: &decorations) }
        var item = ItemDescription(id: id, type: type, style: style, properties: properties, background: background,
                                   automaticallyUpdatesContentConfiguration: autoContent,
                                   automaticallyUpdatesBackgroundConfiguration: autoBackground,
                                   handlers: handlers, handlerForm: handlerForm, line: line, decorations: decorations)
        if let c = fields.take("children") { item.children = try parseChildren(c, of: id, line: line) }
        if let expanded = try fields.bool("expanded") { item.isExpanded = expanded }
        if let s = fields.take("separators") { item.separators = try parseSeparators(s, base: scene.separators) }
        return item
    }

    /// `"children": [{item}, …]`: an outline's next level, each child an item object (which may
    /// have children of its own). Ids must be unique across the whole list, the tree included.
    private func parseChildren(_ value: JSON, of parent: String, line: Int) throws(LineError) -> [ItemDescription] {
        guard let objects = value.arrayValue else {
            throw LineError("\"children\" of \"\(parent)\" takes an array of item objects, not \(value.kindName)")
        }
        var children: [ItemDescription] = []
        var seen: Set<String> = [parent]
        for object in objects {
            var f = try Fields(object, in: "child of \"\(parent)\"", known: EventStreamParser.itemKeys)
            let child = try parseItem(&f, line: line)
            try f.finish()
            for id in [child.id] + child.outlineDescendants.map(\.id) {
                guard seen.insert(id).inserted else { throw LineError("item \"\(id)\" appears twice in the outline of \"\(parent)\"; ids must be unique") }
            }
            children.append(child)
        }
        return children
    }

    /// An update handler's rules: `[{"when": {…}, "set": {…}, "background": {…}}, …]`.
    private func parseHandlerRules(_ value: JSON, key: String) throws(LineError) -> [UpdateHandlerRule] {
        guard let rules = value.arrayValue else {
            throw LineError("\"\(key)\" takes an array of {\"when\": {…}, \"set\": {…}}, not \(value.kindName)")
        }
        var handlers: [UpdateHandlerRule] = []
        for rule in rules {
            var rf = try Fields(rule, in: "handler")
            let when = try rf.object("when").map { w throws(LineError) in try parseStateObject(w) } ?? StateChange()
            let set = try rf.object("set").map { s throws(LineError) in try parseAssignments(s) } ?? []
            let bg = try rf.object("background").map { s throws(LineError) in try parseAssignments(s) } ?? []
            try rf.finish()
            handlers.append(UpdateHandlerRule(when: when, set: set, background: bg))
        }
        return handlers
    }

    public static let listContentStyles = [
        "cell", "subtitleCell", "valueCell", "sidebarCell", "sidebarSubtitleCell", "accompaniedSidebarCell",
        "accompaniedSidebarSubtitleCell", "plainHeader", "plainFooter", "groupedHeader", "groupedFooter",
        "sidebarHeader", "prominentInsetGroupedHeader", "extraProminentInsetGroupedHeader", "header", "footer",
    ]

    public static let backgroundStyles = [
        "clear", "listPlainCell", "listGroupedCell", "listSidebarCell", "listAccompaniedSidebarCell",
        "listPlainHeaderFooter", "listGroupedHeaderFooter", "listSidebarHeader", "listCell", "listHeader", "listFooter",
    ]

    private func parseBackground(_ value: JSON) throws(LineError) -> BackgroundDescription {
        if let s = value.stringValue {
            try checkBackgroundStyle(s)
            return BackgroundDescription(style: s)
        }
        var f = try Fields(value, in: "background")
        let style = try f.string("style")
        if let style { try checkBackgroundStyle(style) }
        let props = try f.object("set").map { p throws(LineError) in try parseAssignments(p) } ?? []
        try f.finish()
        return BackgroundDescription(style: style, properties: props)
    }

    private func checkBackgroundStyle(_ s: String) throws(LineError) {
        guard EventStreamParser.backgroundStyles.contains(s) else {
            throw LineError("\"\(s)\" is not a background style (\(EventStreamParser.backgroundStyles.joined(separator: ", ")))"
                + Suggestion.hint(for: s, in: EventStreamParser.backgroundStyles))
        }
    }

    // MARK: Events

    /// Every field an event line may have, for "did you mean".
    static let eventKeys = ["cell", "header", "footer", "note", "animate", "group"] + stateKeys
        + ["set", "background", "perform", "setNeedsUpdateConfiguration", "traits", "scroll", "insert", "delete",
           "reload", "capture", "swipe", "expand", "collapse"]

    static let stateKeys = ["highlighted", "selected", "disabled", "focused", "pinned", "editing", "expanded",
                            "swiped", "reordering", "drag", "drop", "custom"]

    private mutating func parseEvent(_ pairs: [(String, JSON)], line: Int, number: Int) throws(LineError) -> Event {
        var fields = try Fields(.object(pairs), in: "event", known: EventStreamParser.eventKeys)
        try fields.rejectUnknown()
        let note = try fields.string("note")
        var animation: Animation?
        if let a = fields.take("animate") { animation = try parseAnimation(a) }
        var actions: [EventAction] = []
        if let g = fields.take("group") {
            guard let members = g.arrayValue, !members.isEmpty else {
                throw LineError("\"group\" takes a non-empty array of events, not \(g.kindName)")
            }
            for member in members {
                guard let memberPairs = member.objectPairs else {
                    throw LineError("each member of \"group\" must be an object, not \(member.kindName)")
                }
                var mf = try Fields(.object(memberPairs), in: "group member", known: EventStreamParser.eventKeys)
                try mf.rejectUnknown()
                for forbidden in ["group", "animate", "note"] where mf.has(forbidden) {
                    throw LineError("\"\(forbidden)\" belongs on the group's line, not inside a member")
                }
                actions += try parseActions(&mf, line: line)
                try mf.finish()
            }
        }
        actions += try parseActions(&fields, line: line)
        try fields.finish()
        guard !actions.isEmpty else {
            throw LineError("the line has no event; an event needs a target (\"cell\", \"header\", \"footer\") with a change, or one of \"traits\", \"scroll\", \"insert\", \"delete\", \"reload\", \"capture\", \"swipe\", \"expand\", \"collapse\"")
        }
        return Event(number: number, line: line, note: note, animation: animation, actions: actions)
    }

    private mutating func parseActions(_ fields: inout Fields, line: Int) throws(LineError) -> [EventAction] {
        var actions: [EventAction] = []
        var targets: [CellTarget] = []
        if let c = fields.take("cell") {
            let ids: [String]
            if let s = c.stringValue { ids = [s] } else if let a = c.arrayValue, !a.isEmpty, a.allSatisfy({ $0.stringValue != nil }) {
                ids = a.compactMap(\.stringValue)
            } else {
                throw LineError("\"cell\" takes an item id or an array of ids, not \(c.kindName)")
            }
            for id in ids {
                guard itemExists(id) else { throw LineError("no item \"\(id)\"" + Suggestion.hint(for: id, in: liveWrittenIDs)) }
                targets.append(.cell(id))
            }
        }
        for key in ["header", "footer"] {
            guard let s = try fields.string(key) else { continue }
            guard let section = scene.sections.first(where: { $0.id == s }) else {
                throw LineError("no section \"\(s)\"" + Suggestion.hint(for: s, in: sectionIDs))
            }
            guard (key == "header" ? section.header : section.footer) != nil else {
                throw LineError("section \"\(s)\" has no \(key)")
            }
            targets.append(key == "header" ? .header(section: s) : .footer(section: s))
        }
        var state = StateChange()
        var stateFields: [(String, JSON)] = []
        for key in EventStreamParser.stateKeys { if let v = fields.take(key) { stateFields.append((key, v)) } }
        if !stateFields.isEmpty { state = try parseStateObject(stateFields) }
        var setPairs = try fields.object("set")
        var accessories: [CellAccessory]?
        if let i = setPairs?.firstIndex(where: { $0.0 == "accessories" }) {
            accessories = try EventStreamParser.parseAccessories(setPairs!.remove(at: i).1)
        }
        let set = try setPairs.map { p throws(LineError) in try parseAssignments(p) } ?? []
        let background = try fields.object("background").map { p throws(LineError) in try parseAssignments(p) } ?? []
        var perform: [ActionCall] = []
        if let p = fields.take("perform") { perform = try parseActionCalls(p) }
        let needsUpdate = try fields.bool("setNeedsUpdateConfiguration") ?? false
        let changesCells = !state.isEmpty || !set.isEmpty || !background.isEmpty || !perform.isEmpty || needsUpdate
            || accessories != nil
        if changesCells {
            guard !targets.isEmpty else {
                let what = stateFields.first?.0 ?? (!set.isEmpty || accessories != nil ? "set" : !perform.isEmpty ? "perform" : !background.isEmpty ? "background" : "setNeedsUpdateConfiguration")
                throw LineError("\"\(what)\" needs a target: add \"cell\": \"<item id>\" (or \"header\"/\"footer\": \"<section id>\")")
            }
            if let nonCell = targets.first(where: { !$0.isCell }), let bad = [
                "editing": state.editing != nil, "expanded": state.expanded != nil, "swiped": state.swiped != nil,
                "reordering": state.reordering != nil, "drag": state.drag != nil, "drop": state.drop != nil,
            ].filter(\.value).map(\.key).sorted().first {
                throw LineError("\"\(bad)\" is a cell state; \(nonCell) is a header/footer view (it has only highlighted, selected, disabled, focused, pinned and custom states)")
            }
            if state.pinned != nil, let cell = targets.first(where: \.isCell) {
                throw LineError("\"pinned\" applies to headers and footers, not to cell \"\(cell)\"")
            }
            if accessories != nil, let nonCell = targets.first(where: { !$0.isCell }) {
                throw LineError("\"accessories\" belong to cells; \(nonCell) is a header/footer view")
            }
            actions.append(.cells(CellEvent(targets: targets, state: state, set: set, background: background,
                                            perform: perform, setNeedsUpdateConfiguration: needsUpdate,
                                            accessories: accessories)))
        } else if !targets.isEmpty {
            throw LineError("the event names \(targets[0]) but changes nothing; add a state such as \"selected\": true, \"set\", \"perform\" or \"setNeedsUpdateConfiguration\"")
        }
        if let s = fields.take("swipe") {
            let (id, edge, full) = try EventStreamParser.parseSwipe(s)
            guard itemExists(id) else { throw LineError("no item \"\(id)\"" + Suggestion.hint(for: id, in: liveWrittenIDs)) }
            var event = CellEvent(targets: [.cell(id)], swipe: edge)
            event.fullSwipe = full
            actions.append(.cells(event))
        }
        if let t = fields.take("traits") { actions.append(.traits(try parseTraits(t))) }
        if let s = fields.take("scroll") { actions.append(.scroll(try parseScroll(s))) }
        if let i = fields.take("insert") {
            var f = try Fields(i, in: "insert", known: EventStreamParser.itemKeys + ["section", "index"])
            let sectionID = try f.string("section") ?? scene.sections.last?.id ?? "main"
            guard sectionIDs.contains(sectionID) else {
                throw LineError("no section \"\(sectionID)\"" + Suggestion.hint(for: sectionID, in: sectionIDs))
            }
            let index = try f.integer("index")
            let item = try parseItem(&f, line: 0)
            try f.finish()
            itemIDs.insert(item.id)
            noteOutline(of: item)
            actions.append(.insert(item, section: sectionID, index: index))
        }
        for key in ["delete", "reload"] {
            guard let id = try fields.string(key) else { continue }
            guard itemExists(id) else { throw LineError("no item \"\(id)\"" + Suggestion.hint(for: id, in: liveWrittenIDs)) }
            if key == "delete" {
                if itemIDs.remove(id) == nil { deletedSceneIDs.insert(id) }
                for d in outlineDescendantIDs.removeValue(forKey: id) ?? [] { itemIDs.remove(d) }
                outlineParents.remove(id)
                actions.append(.delete(itemID: id))
            } else {
                actions.append(.reload(itemID: id))
            }
        }
        for key in ["expand", "collapse"] {
            guard let id = try fields.string(key) else { continue }
            guard itemExists(id) else { throw LineError("no item \"\(id)\"" + Suggestion.hint(for: id, in: liveWrittenIDs)) }
            guard outlineParents.contains(id) else {
                throw LineError("\"\(key)\" needs an item with \"children\"; \"\(id)\" has none")
            }
            actions.append(.outline(OutlineChange(itemID: id, expands: key == "expand")))
        }
        if let c = fields.take("capture") {
            switch c {
            case .bool(true): actions.append(.capture(name: nil))
            case .string(let name): actions.append(.capture(name: try takeCaptureName(name, line: line)))
            case .object(let pairs):
                var f = try Fields(.object(pairs), in: "capture", known: ["name", "cell"])
                try f.rejectUnknown()
                let name = try f.requiredString("name")
                let cell = try f.string("cell")
                try f.finish()
                if let cell, !itemExists(cell) {
                    throw LineError("capture \"\(name)\": no item \"\(cell)\"" + Suggestion.hint(for: cell, in: liveWrittenIDs))
                }
                actions.append(.capture(name: try takeCaptureName(name, line: line), cell: cell))
            default: throw LineError("\"capture\" takes true, a name, or {\"name\": …, \"cell\": …}, not \(c.kindName)")
            }
        }
        return actions
    }

    /// A capture's name becomes a file name (`<name>.png`, and `<name>.<combination>.png` under
    /// a matrix), so it is used once per stream and made of letters, digits, `-` and `_`: no `.`,
    /// which separates the combination and the `.actual` / `.diff` files.
    private mutating func takeCaptureName(_ name: String, line: Int) throws(LineError) -> String {
        guard !name.isEmpty, name.allSatisfy({ c in TraitMatrix.isNamePart(c) || c == "-" }) else {
            throw LineError("capture name \"\(name)\" becomes a file name: use letters, digits, \"-\" and \"_\" only")
        }
        guard !name.hasPrefix("frame-") else {
            throw LineError("capture name \"\(name)\" would clash with the numbered frames (frame-0001.png …); pick another")
        }
        if let first = captureLines[name] {
            throw LineError("capture name \"\(name)\" is already used on line \(first); each capture needs its own name")
        }
        captureLines[name] = line
        return name
    }

    private func parseStateObject(_ value: JSON) throws(LineError) -> StateChange {
        guard let pairs = value.objectPairs else { throw LineError("expected an object of states, not \(value.kindName)") }
        return try parseStateObject(pairs)
    }

    private func parseStateObject(_ pairs: [(String, JSON)]) throws(LineError) -> StateChange {
        var fields = try Fields(.object(pairs), in: "state", known: EventStreamParser.stateKeys)
        var s = StateChange()
        s.highlighted = try fields.bool("highlighted")
        s.selected = try fields.bool("selected")
        s.disabled = try fields.bool("disabled")
        s.focused = try fields.bool("focused")
        s.pinned = try fields.bool("pinned")
        s.editing = try fields.bool("editing")
        s.expanded = try fields.bool("expanded")
        s.swiped = try fields.bool("swiped")
        s.reordering = try fields.bool("reordering")
        s.drag = try fields.enumValue("drag", CellDragState.self)
        s.drop = try fields.enumValue("drop", CellDropState.self)
        if let custom = try fields.object("custom") {
            for (key, v) in custom {
                let value: CustomStateValue?
                switch v {
                case .null: value = nil
                case .bool(let b): value = .bool(b)
                case .int(let i): value = .int(i)
                case .double(let d): value = .double(d)
                case .string(let str): value = .string(str)
                default: throw LineError("custom state \"\(key)\" takes a boolean, number, string or null (to remove it), not \(v.kindName)")
                }
                s.custom.append(CustomStateChange(key: ConfigurationStateCustomKey(key), value: value))
            }
        }
        try fields.finish()
        return s
    }

    static let traitKeys = ["style", "contentSize", "direction", "horizontalSizeClass", "verticalSizeClass", "contrast", "level",
                            "legibilityWeight", "idiom"]

    private func parseTraits(_ value: JSON) throws(LineError) -> TraitChange {
        var f = try Fields(value, in: "traits", known: EventStreamParser.traitKeys)
        var t = TraitChange()
        t.userInterfaceStyle = try f.enumValue("style", UserInterfaceStyle.self)
        if let c = try f.string("contentSize") {
            guard let category = ContentSizeCategory(name: c) else {
                let names = ContentSizeCategory.allCases.map(\.shortName)
                throw LineError("\"\(c)\" is not a content size (\(names.joined(separator: ", ")) or the full names like \"accessibilityLarge\")"
                    + Suggestion.hint(for: c, in: names + ContentSizeCategory.allCases.map(\.rawValue)))
            }
            t.contentSizeCategory = category
        }
        if let d = try f.string("direction") {
            switch d.lowercased() {
            case "ltr", "lefttoright": t.layoutDirection = .leftToRight
            case "rtl", "righttoleft": t.layoutDirection = .rightToLeft
            default: throw LineError("\"direction\" is \"ltr\" or \"rtl\", not \"\(d)\"")
            }
        }
        t.horizontalSizeClass = try f.enumValue("horizontalSizeClass", UserInterfaceSizeClass.self)
        t.verticalSizeClass = try f.enumValue("verticalSizeClass", UserInterfaceSizeClass.self)
        t.accessibilityContrast = try f.enumValue("contrast", AccessibilityContrast.self)
        t.userInterfaceLevel = try f.enumValue("level", UserInterfaceLevel.self)
        t.legibilityWeight = try f.enumValue("legibilityWeight", LegibilityWeight.self)
        t.userInterfaceIdiom = try f.enumValue("idiom", UserInterfaceIdiom.self)
        try f.finish()
        guard t != TraitChange() else { throw LineError("\"traits\" changes nothing; name at least one of \(EventStreamParser.traitKeys.joined(separator: ", "))") }
        return t
    }

    private func parseScroll(_ value: JSON) throws(LineError) -> ScrollChange {
        if let d = value.doubleValue { return .to(d) }
        var f = try Fields(value, in: "scroll", known: ["to", "by"])
        let to = try f.number("to"), by = try f.number("by")
        try f.finish()
        switch (to, by) {
        case (let to?, nil): return .to(to)
        case (nil, let by?): return .by(by)
        default: throw LineError("\"scroll\" takes a content offset in points, or exactly one of {\"to\": y} and {\"by\": dy}")
        }
    }

    private func parseAnimation(_ value: JSON) throws(LineError) -> Animation {
        if let d = value.doubleValue {
            guard d > 0, d <= 10 else { throw LineError("\"animate\" duration must be in (0, 10] seconds, not \(formatPoints(d))") }
            return Animation(duration: d)
        }
        var f = try Fields(value, in: "animate", known: ["duration", "curve", "frames"])
        let d = try f.requiredNumber("duration")
        guard d > 0, d <= 10 else { throw LineError("\"animate\" duration must be in (0, 10] seconds, not \(formatPoints(d))") }
        let curve = try f.enumValue("curve", Animation.Curve.self) ?? .easeInOut
        let frames = try f.integer("frames")
        if let frames, frames < 1 || frames > 240 { throw LineError("\"frames\" must be 1…240, not \(frames)") }
        try f.finish()
        return Animation(duration: d, curve: curve, frames: frames)
    }

    private func parseActionCalls(_ value: JSON) throws(LineError) -> [ActionCall] {
        switch value {
        case .string(let name): return [ActionCall(name: name)]
        case .object(let pairs):
            // {"increment": [2]} or {"reset": []}: action name → arguments.
            var calls: [ActionCall] = []
            for (name, args) in pairs {
                let list = args.arrayValue ?? [args]
                calls.append(ActionCall(name: name, arguments: try list.map { a throws(LineError) in try propertyValue(a, for: name) }))
            }
            return calls
        case .array(let items):
            var calls: [ActionCall] = []
            for item in items { calls += try parseActionCalls(item) }
            return calls
        default:
            throw LineError("\"perform\" takes an action name, {\"name\": [arguments]} or an array of them, not \(value.kindName)")
        }
    }

    private func parseAssignments(_ pairs: [(String, JSON)]) throws(LineError) -> [PropertyAssignment] {
        var out: [PropertyAssignment] = []
        for (name, value) in pairs { out.append(PropertyAssignment(name: name, value: try propertyValue(value, for: name))) }
        return out
    }

    /// Converts a JSON value to a property value. Strings set on a property whose name ends in
    /// "color" are colours ("white", "systemBlue", "#FF9500"); objects spell the structured kinds:
    /// `{"width","height"}` size, `{"top","leading","bottom","trailing"}` insets, `{"symbol"}` image,
    /// `{"pointSize", "weight"}` font, `{"color"}` an explicit colour.
    func propertyValue(_ value: JSON, for name: String) throws(LineError) -> PropertyValue {
        switch value {
        case .null: return .none
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s):
            if name.lowercased().hasSuffix("image"), s.contains("/") || s.lowercased().hasSuffix(".png") {
                var status = stat()
                if stat(s, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                    throw LineError("\"\(name)\": \"\(s)\" is not a regular file (a folder, FIFO or device); images are PNG files")
                }
            }
            if name.lowercased().hasSuffix("color") {
                guard let c = Color(parsing: s) else {
                    throw LineError("\"\(s)\" is not a colour for \"\(name)\" (a name like \"systemBlue\" or \"#RRGGBB[AA]\")"
                        + Suggestion.hint(for: s, in: Color.named.keys))
                }
                return .color(c)
            }
            return .string(s)
        case .array(let items) where name.lowercased().hasSuffix("attributedtext"):
            return .attributed(try attributedText(items, for: name))
        case .array:
            throw LineError("\"\(name)\": arrays are not property values")
        case .object(let pairs):
            let keys = Set(pairs.map(\.0))
            var f = try Fields(value, in: name)
            if keys == ["color"], let s = value["color"]?.stringValue {
                guard let c = Color(parsing: s) else { throw LineError("\"\(s)\" is not a colour (a name like \"systemBlue\" or \"#RRGGBB[AA]\")") }
                return .color(c)
            }
            if keys == ["width", "height"] {
                return .size(Size(width: try f.requiredNumber("width"), height: try f.requiredNumber("height")))
            }
            if keys.isSubset(of: ["top", "leading", "bottom", "trailing"]) && !keys.isEmpty {
                return .insets(DirectionalEdgeInsets(top: try f.number("top") ?? 0, leading: try f.number("leading") ?? 0,
                                                     bottom: try f.number("bottom") ?? 0, trailing: try f.number("trailing") ?? 0))
            }
            if keys == ["symbol"], let s = value["symbol"]?.stringValue { return .image(Image(systemName: s)) }
            if keys.contains("pointSize") && keys.isSubset(of: ["pointSize", "weight", "family", "italic"]) {
                let font = Font(family: try f.string("family"), pointSize: try f.requiredNumber("pointSize"),
                                weight: try f.enumValue("weight", FontWeight.self) ?? .regular, isItalic: try f.bool("italic") ?? false)
                return .font(font)
            }
            throw LineError("\"\(name)\": an object value is one of {\"color\"}, {\"width\",\"height\"}, {\"top\",\"leading\",\"bottom\",\"trailing\"}, {\"symbol\"} or {\"pointSize\",\"weight\",\"family\",\"italic\"}; found keys \(pairs.map { "\"\($0.0)\"" }.joined(separator: ", "))")
        }
    }
}

extension EventStreamParser {
    /// Attributed text as runs: `[{"text": "Due "}, {"text": "today", "color": "systemRed", "weight": "bold"}]`;
    /// a run's font takes the forms a `font` property takes (a point size, a text style, or
    /// `{"pointSize", "weight", "family", "italic"}`).
    func attributedText(_ items: [JSON], for name: String) throws(LineError) -> AttributedText {
        guard !items.isEmpty else { throw LineError("\"\(name)\" needs at least one run ({\"text\": …})") }
        var runs: [AttributedText.Run] = []
        for (i, item) in items.enumerated() {
            let context = "\(name)[\(i)]"
            var f = try Fields(item, in: context, known: ["text", "font", "color", "weight"])
            try f.rejectUnknown()
            guard let text = try f.string("text") else { throw LineError("\"\(context)\" needs \"text\"") }
            var run = AttributedText.Run(text)
            if let font = f.take("font") {
                let value = try propertyValue(font, for: "font")
                let parsed: Font?
                do throws(ConfigurationPropertyError) {
                    parsed = try Font.converting(value, property: "\(context).font")
                } catch { throw LineError(error.description) }
                guard let parsed else {
                    throw LineError("\"\(context)\": \"font\" takes a point size, a text style name or {\"pointSize\", …}, not \(font.kindName)")
                }
                run.font = parsed
            }
            if let color = try f.string("color") {
                guard let c = Color(parsing: color) else {
                    throw LineError("\"\(color)\" is not a colour for \"\(context)\" (a name like \"systemBlue\" or \"#RRGGBB[AA]\")"
                        + Suggestion.hint(for: color, in: Color.named.keys))
                }
                run.color = c
            }
            run.weight = try f.enumValue("weight", FontWeight.self)
            try f.finish()
            runs.append(run)
        }
        return AttributedText(runs)
    }
}

/// A line-level message; the parser adds source and line number.
struct LineError: Error {
    var text: String
    init(_ text: String) { self.text = text }
}

/// Reads the fields of one JSON object, checking types, and at the end rejects the fields nobody
/// asked for — with the closest known field name.
struct Fields {
    private var pairs: [(String, JSON)]
    private let context: String
    private var known: [String]

    init(_ value: JSON, in context: String, known: [String] = []) throws(LineError) {
        guard let pairs = value.objectPairs else { throw LineError("\"\(context)\" takes an object, not \(value.kindName)") }
        self.pairs = pairs
        self.context = context
        self.known = known
    }

    func has(_ key: String) -> Bool { pairs.contains(where: { $0.0 == key }) }

    mutating func take(_ key: String) -> JSON? {
        // With no field left, neither `finish` nor `rejectUnknown` can fail: the names asked for
        // (which only their messages use) no longer matter.
        guard !pairs.isEmpty else { return nil }
        if !known.contains(key) { known.append(key) }
        guard let i = pairs.firstIndex(where: { $0.0 == key }) else { return nil }
        return pairs.remove(at: i).1
    }

    mutating func string(_ key: String) throws(LineError) -> String? {
        guard let v = take(key) else { return nil }
        guard let s = v.stringValue else { throw LineError("\"\(key)\" takes a string, not \(v.kindName)") }
        return s
    }

    mutating func requiredString(_ key: String) throws(LineError) -> String {
        guard let s = try string(key) else { throw LineError("\"\(context)\" needs \"\(key)\"") }
        guard !s.isEmpty else { throw LineError("\"\(key)\" must not be empty") }
        return s
    }

    mutating func number(_ key: String) throws(LineError) -> Double? {
        guard let v = take(key) else { return nil }
        guard let d = v.doubleValue else { throw LineError("\"\(key)\" takes a number, not \(v.kindName)") }
        return d
    }

    /// A whole number; fractions and values beyond ±1e15 (which would trap converting to Int)
    /// are refused.
    mutating func integer(_ key: String) throws(LineError) -> Int? {
        guard let d = try number(key) else { return nil }
        guard d.rounded() == d, abs(d) < 1e15 else { throw LineError("\"\(key)\" takes a whole number, not \(d)") }
        return Int(d)
    }

    mutating func requiredNumber(_ key: String) throws(LineError) -> Double {
        guard let d = try number(key) else { throw LineError("\"\(context)\" needs \"\(key)\"") }
        return d
    }

    mutating func bool(_ key: String) throws(LineError) -> Bool? {
        guard let v = take(key) else { return nil }
        guard let b = v.boolValue else { throw LineError("\"\(key)\" takes true or false, not \(v.serialized)") }
        return b
    }

    mutating func object(_ key: String) throws(LineError) -> [(String, JSON)]? {
        guard let v = take(key) else { return nil }
        guard let o = v.objectPairs else { throw LineError("\"\(key)\" takes an object, not \(v.kindName)") }
        return o
    }

    mutating func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(LineError) -> E?
    where E.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let e = E(rawValue: s) else {
            let names = E.allCases.map(\.rawValue)
            throw LineError("\"\(key)\" is one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), not \"\(s)\""
                + Suggestion.hint(for: s, in: names))
        }
        return e
    }

    /// Throws for the first field not in the known list, before any value is read: a misspelt
    /// name is the likeliest reason for every later complaint about the object.
    func rejectUnknown() throws(LineError) {
        guard let (key, _) = pairs.first(where: { !known.contains($0.0) }) else { return }
        throw LineError("\"\(key)\" is not \(context == "event" ? "an event field" : "a field of \"\(context)\"")"
            + Suggestion.hint(for: key, in: known))
    }

    /// Throws for the first field left over: it is not part of this object.
    func finish() throws(LineError) {
        guard let (key, _) = pairs.first else { return }
        throw LineError("\"\(key)\" is not \(context == "event" ? "an event field" : "a field of \"\(context)\"")"
            + Suggestion.hint(for: key, in: known))
    }
}
