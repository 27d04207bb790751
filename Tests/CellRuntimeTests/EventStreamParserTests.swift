import CellIO
import CellKit
import Testing
@testable import CellRuntime

@Suite struct EventStreamParserTests {
    static let scene = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 600}, "scale": 3, "traits": {"style": "dark", "contentSize": "XL"}}}
        {"section": {"id": "fruits", "header": "Fruits", "footer": "Fresh"}}
        {"item": {"id": "apple", "style": "subtitleCell", "set": {"text": "Apple", "textProperties.color": "systemRed"}, "background": "listGroupedCell"}}
        {"item": {"id": "badge", "type": "com.example.badge", "set": {"count": 3}, "handlers": [{"when": {"selected": true}, "set": {"count": 0}}]}}
        """

    func parse(_ events: String) throws -> (SceneDescription, [Event]) {
        try EventStreamParser.parse(Self.scene + "\n" + events, source: "events.jsonl")
    }

    func error(_ events: String) -> EventStreamError? {
        do { _ = try parse(events); return nil } catch { return error as? EventStreamError }
    }

    @Test func sceneLines() throws {
        let (scene, events) = try parse("")
        #expect(events.isEmpty)
        #expect(scene.appearance == .insetGrouped)
        #expect(scene.viewport == Size(width: 390, height: 600))
        #expect(scene.scale == 3)
        #expect(scene.traits.userInterfaceStyle == .dark)
        #expect(scene.traits.preferredContentSizeCategory == .extraLarge)
        #expect(scene.traits.listEnvironment == .insetGrouped)
        #expect(scene.sections.count == 1)
        #expect(scene.sections[0].header == "Fruits")
        let apple = scene.sections[0].items[0]
        #expect(apple.type == ItemDescription.listContentType)
        #expect(apple.style == "subtitleCell")
        #expect(apple.properties == [PropertyAssignment(name: "text", value: .string("Apple")),
                                     PropertyAssignment(name: "textProperties.color", value: .color(.systemRed))])
        #expect(apple.background == BackgroundDescription(style: "listGroupedCell"))
        let badge = scene.sections[0].items[1]
        #expect(badge.type == "com.example.badge")
        #expect(badge.handlers == [UpdateHandlerRule(when: StateChange(selected: true), set: [PropertyAssignment(name: "count", value: .int(0))])])
    }

    @Test func everyCellStateFlag() throws {
        let (_, events) = try parse("""
            {"cell": "apple", "highlighted": true, "selected": true, "disabled": false, "focused": true, "editing": true, "expanded": true, "swiped": true, "reordering": true, "drag": "lifting", "drop": "targeted", "custom": {"isFavorite": true, "level": 2, "gone": null}}
            """)
        let e = try #require(events.first)
        #expect(e.number == 1 && e.line == 5)
        guard case .cells(let c) = e.actions.first else { Issue.record("not a cell event"); return }
        #expect(c.targets == [.cell("apple")])
        var state = CellConfigurationState()
        c.state.apply(to: &state)
        #expect(state.isHighlighted && state.isSelected && !state.isDisabled && state.isFocused)
        #expect(state.isEditing && state.isExpanded && state.isSwiped && state.isReordering)
        #expect(state.cellDragState == .lifting && state.cellDropState == .targeted)
        #expect(state.customStates == ["isFavorite": .bool(true), "level": .int(2)])
    }

    @Test func headerPinnedTraitsScrollAndStructure() throws {
        let (_, events) = try parse("""
            {"header": "fruits", "pinned": true}
            {"traits": {"style": "light", "contentSize": "AX3", "direction": "rtl", "contrast": "high", "horizontalSizeClass": "regular"}}
            {"scroll": 120}
            {"scroll": {"by": -20}}
            {"insert": {"id": "kiwi", "section": "fruits", "index": 0, "set": {"text": "Kiwi"}}}
            {"cell": "kiwi", "selected": true}
            {"reload": "apple"}
            {"delete": "kiwi"}
            {"capture": "after-delete"}
            {"cell": "badge", "set": {"count": 3}, "perform": {"increment": [2]}, "setNeedsUpdateConfiguration": true}
            {"animate": {"duration": 0.3, "curve": "easeOut", "frames": 6}, "group": [{"cell": "apple", "selected": true}, {"cell": "badge", "selected": true}], "note": "both"}
            """)
        #expect(events.count == 11)
        #expect(events[0].actions == [.cells(CellEvent(targets: [.header(section: "fruits")], state: StateChange(pinned: true)))])
        #expect(events[1].actions == [.traits(TraitChange(userInterfaceStyle: .light, contentSizeCategory: .accessibilityExtraLarge,
                                                          layoutDirection: .rightToLeft, horizontalSizeClass: .regular,
                                                          accessibilityContrast: .high))])
        #expect(events[2].actions == [.scroll(.to(120))])
        #expect(events[3].actions == [.scroll(.by(-20))])
        guard case .insert(let item, let section, let index) = events[4].actions[0] else { Issue.record("no insert"); return }
        #expect(item.id == "kiwi" && section == "fruits" && index == 0)
        #expect(events[6].actions == [.reload(itemID: "apple")])
        #expect(events[7].actions == [.delete(itemID: "kiwi")])
        #expect(events[8].actions == [.capture(name: "after-delete")])
        #expect(events[9].actions == [.cells(CellEvent(targets: [.cell("badge")], set: [PropertyAssignment(name: "count", value: .int(3))],
                                                       perform: [ActionCall(name: "increment", arguments: [.int(2)])],
                                                       setNeedsUpdateConfiguration: true))])
        #expect(events[10].animation == Animation(duration: 0.3, curve: .easeOut, frames: 6))
        #expect(events[10].actions.count == 2)
        #expect(events[10].note == "both")
    }

    @Test func misspeltFieldNamesTheLineAndSuggests() {
        let e = error("{\"cell\": \"apple\", \"selcted\": true}")
        #expect(e?.description == "events.jsonl:5: \"selcted\" is not an event field; did you mean \"selected\"?")
    }

    @Test func malformedLinesReportLineAndReason() {
        #expect(error("{\"cell\": \"apple\" \"selected\": true}")?.description
            == "events.jsonl:5:18: expected ',' or '}' in an object, found '\"'")
        #expect(error("\n{\"cell\": \"aple\", \"selected\": true}")?.description
            == "events.jsonl:6: no item \"aple\"; did you mean \"apple\"?")
        #expect(error("{\"cell\": \"apple\", \"selected\": \"yes\"}")?.message == "\"selected\" takes true or false, not \"yes\"")
        #expect(error("{\"cell\": \"apple\", \"drag\": \"draging\"}")?.message
            == "\"drag\" is one of \"none\", \"lifting\", \"dragging\", not \"draging\"; did you mean \"dragging\"?")
        #expect(error("{\"selected\": true}")?.message.hasPrefix("\"selected\" needs a target") == true)
        #expect(error("{\"header\": \"fruits\", \"editing\": true}")?.message.hasPrefix("\"editing\" is a cell state") == true)
        #expect(error("{\"cell\": \"apple\", \"pinned\": true}")?.message == "\"pinned\" applies to headers and footers, not to cell \"apple\"")
        #expect(error("{\"traits\": {\"contentSize\": \"AX9\"}}")?.message.hasPrefix("\"AX9\" is not a content size") == true)
        #expect(error("{\"scroll\": 10}\n{\"item\": {\"id\": \"late\"}}")?.message.hasPrefix("\"item\" lines describe the scene") == true)
        #expect(error("[1, 2]")?.message == "each line must be a JSON object, not an array")
        #expect(error("{\"cell\": \"apple\", \"set\": {\"textProperties.color\": \"redish\"}}")?.message.hasPrefix("\"redish\" is not a colour") == true)
        #expect(error("{\"cell\": \"apple\"}")?.message.contains("changes nothing") == true)
        #expect(error("{\"cell\": 'apple'}")?.message == "strings take double quotes, not single quotes")
    }

    @Test func commentsAndBlankLinesAreSkippedButCounted() throws {
        let (_, events) = try parse("# highlight first\n\n{\"cell\": \"apple\", \"highlighted\": true}")
        #expect(events.map(\.line) == [7])
    }

    @Test func sceneLinesTakeANoteAndKeepNothingOfIt() throws {
        let annotated = try EventStreamParser.parse("""
            {"note": "a plain list", "scene": {"appearance": "plain"}}
            {"section": {"id": "s", "header": "Header"}, "note": "one section"}
            {"note": "a row", "item": {"id": "a"}}
            {"note": "a series", "items": {"id": "r{n}", "count": 2, "templates": [{}]}}
            {"note": "select", "cell": "a", "selected": true}
            """, source: "s")
        let plain = try EventStreamParser.parse("""
            {"scene": {"appearance": "plain"}}
            {"section": {"id": "s", "header": "Header"}}
            {"item": {"id": "a"}}
            {"items": {"id": "r{n}", "count": 2, "templates": [{}]}}
            {"note": "select", "cell": "a", "selected": true}
            """, source: "s")
        #expect(annotated.0 == plain.0)
        #expect(annotated.1 == plain.1)
        #expect(annotated.1.first?.note == "select")
    }

    @Test func aSceneLineHoldsOneFieldBesidesItsNote() {
        func message(_ line: String) -> String? {
            guard case .failure(let error) = Result(catching: { () throws(EventStreamError) in
                try EventStreamParser.parse(line, source: "s")
            }) else { return nil }
            return error.message
        }
        #expect(message(#"{"note": "x", "item": {"id": "a"}, "cell": "a"}"#)
            == #"a "item" line holds only "item" and a "note"; found also "cell""#)
        #expect(message(#"{"note": 3, "item": {"id": "a"}}"#) == #""note" takes a string, not a number"#)
    }

    @Test func streamMustDescribeAListFirst() {
        #expect(throws: EventStreamError.self) { try EventStreamParser.parse("{\"traits\": {\"style\": \"dark\"}}", source: "s") }
    }

    @Test func propertyValueKinds() throws {
        let (_, events) = try parse("""
            {"cell": "apple", "set": {"imageProperties.reservedLayoutSize": {"width": 30, "height": 30}, "directionalLayoutMargins": {"top": 4, "leading": 20}, "image": {"symbol": "star.fill"}, "textProperties.font": {"pointSize": 20, "weight": "bold"}, "alpha": 0.5, "secondaryText": null}}
            """)
        guard case .cells(let c) = events[0].actions[0] else { Issue.record("not a cell event"); return }
        #expect(c.set.map(\.value) == [.size(Size(width: 30, height: 30)), .insets(DirectionalEdgeInsets(top: 4, leading: 20)),
                                      .image(Image(systemName: "star.fill")), .font(Font(pointSize: 20, weight: .bold)),
                                      .double(0.5), .none])
    }
}
