import CellIO
import CellKit
import Testing
@testable import CellRender

/// What `cellhost symbols` lists is what the host resolves: every listed name resolves in its
/// table, and the JSON form holds the same names as the text form.
@Suite struct HostSymbolNamesTests {
    func names(_ key: String) -> [String] { HostSymbolNames.host.kinds.first { $0.key == key }?.names ?? [] }

    @Test func everyListedNameResolves() {
        #expect(names("colors").count == Color.named.count)
        #expect(names("colors").allSatisfy { Color(parsing: $0)?.name == $0 })
        #expect(names("symbols").allSatisfy { SymbolCatalog.parts(named: $0) != nil })
        #expect(names("symbols").count == SymbolCatalog.names.count)
        #expect(names("textStyles") == TextStyle.allCases.map(\.rawValue))
        #expect(Set(names("transformers")) == Set(ColorTransformer.builtIn.keys))
    }

    @Test func theJSONHoldsTheSameNames() throws {
        let json = try JSON.parse(HostSymbolNames.host.json)
        let pairs = try #require(json.objectPairs)
        #expect(pairs.map(\.0) == ["colors", "symbols", "textStyles", "transformers"])
        for (key, value) in pairs {
            guard case .array(let items) = value else { Issue.record("\(key) is not an array"); continue }
            #expect(items.compactMap(\.stringValue) == names(key))
        }
    }

    @Test func theTextHasAHeadingWithTheCountAndANameALine() {
        let text = HostSymbolNames.host.text
        #expect(text.contains("Colour transformers (6)\n  faded\n  grayscale\n"))
        #expect(text.hasSuffix("  pressed\n"))
    }
}
