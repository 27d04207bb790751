import CellIO
import CellKit
import CellTestSupport
import Testing

/// Every form events.schema.json allows has an example a reader can copy, so a field added to
/// the schema without one fails here.
///
/// The rule, chosen to be checkable without a JSON Schema validator and hard to satisfy by
/// accident: the examples are the JSON objects of SDK/schema/examples/*.jsonl and the lines of
/// SDK/docs/*.md code blocks that parse as JSON objects. Every key the schema defines (every
/// name under any `properties`, at any depth: line kinds, event fields, states, traits, item
/// fields, and the keys of the object forms of a property value — colour, size, insets, symbol,
/// font) must be a key of some object in an example, found by parsing (not by searching text,
/// so a word in a note does not count). Every scalar form of a property value (null, boolean,
/// number, string) must be the value of some `set`. And the `@T` encoding has examples of both
/// of its stream spellings on the sample plugin's `tintTransformer`: a built-in transformer's
/// name and null.
@Suite struct SchemaFormExampleTests {
    static let root = BuiltProducts.packageRoot + "/SDK"

    /// Every JSON object line of the examples and of the docs' code blocks.
    static let exampleLines: [JSON] = {
        var texts: [String] = []
        for name in (directoryEntries(root + "/schema/examples") ?? []) where name.hasSuffix(".jsonl") {
            texts.append(readTextFile(root + "/schema/examples/" + name) ?? "")
        }
        for name in (directoryEntries(root + "/docs") ?? []) where name.hasSuffix(".md") {
            var inBlock = false
            for line in (readTextFile(root + "/docs/" + name) ?? "").split(separator: "\n") {
                if line.drop(while: { $0 == " " }).hasPrefix("```") { inBlock.toggle(); continue }
                if inBlock { texts.append(String(line)) }
            }
        }
        return texts.flatMap { $0.split(separator: "\n") }.compactMap { line in
            guard let value = try? JSON.parse(String(line)), value.objectPairs != nil else { return nil }
            return value
        }
    }()

    /// Each object in `value`, at any depth.
    static func objects(in value: JSON) -> [[(String, JSON)]] {
        switch value {
        case .object(let pairs): [pairs] + pairs.flatMap { objects(in: $0.1) }
        case .array(let items): items.flatMap { objects(in: $0) }
        default: []
        }
    }

    static let exampleObjects = exampleLines.flatMap { objects(in: $0) }

    /// The values every example's `set` objects give.
    static let setValues: [JSON] = exampleObjects.flatMap { pairs in
        pairs.filter { $0.0 == "set" }.flatMap { $0.1.objectPairs ?? [] }.map(\.1)
    }

    /// Every name under any `properties` of the schema.
    static let schemaKeys: Set<String> = {
        guard let text = readTextFile(root + "/schema/events.schema.json"), let schema = try? JSON.parse(text) else { return [] }
        var keys: Set<String> = []
        for pairs in objects(in: schema) {
            for (key, value) in pairs where key == "properties" { keys.formUnion((value.objectPairs ?? []).map(\.0)) }
        }
        return keys
    }()

    @Test func theSchemaAndTheExamplesAreRead() {
        #expect(Self.schemaKeys.isSuperset(of: ["cell", "set", "traits", "pointSize", "symbol"]))
        #expect(Self.exampleLines.count > 40)
    }

    @Test func everySchemaKeyHasAnExample() {
        let used = Set(Self.exampleObjects.flatMap { $0.map(\.0) })
        #expect(Self.schemaKeys.subtracting(used).sorted() == [], "schema keys no example uses")
    }

    @Test func everyScalarValueFormIsSetSomewhere() {
        #expect(Self.setValues.contains { if case .null = $0 { true } else { false } }, "no example sets a property to null")
        #expect(Self.setValues.contains { if case .bool = $0 { true } else { false } }, "no example sets a boolean")
        #expect(Self.setValues.contains { if case .int = $0 { true } else if case .double = $0 { true } else { false } },
                "no example sets a number")
        #expect(Self.setValues.contains { if case .string = $0 { true } else { false } }, "no example sets a string")
    }

    /// `@T` from a stream: a built-in transformer by name, and null for none.
    @Test func aTransformerPropertyIsSetByNameAndToNull() {
        let transformerValues = Self.exampleObjects.flatMap { pairs in
            pairs.filter { $0.0 == "set" }.flatMap { $0.1.objectPairs ?? [] }.filter { $0.0 == "tintTransformer" }.map(\.1)
        }
        #expect(transformerValues.contains { if case .string(let name) = $0 { ColorTransformer.builtIn[name] != nil } else { false } })
        #expect(transformerValues.contains { if case .null = $0 { true } else { false } })
    }
}
