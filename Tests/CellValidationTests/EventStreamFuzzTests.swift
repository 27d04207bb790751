import CellIO
import CellRuntime
import CellValidation
import Glibc
import Testing

/// A seeded random harness for the event-stream parser and the scene lines it loads: mutations
/// of valid streams (truncation, byte flips, huge numbers, deep nesting, invalid UTF-8) must
/// either parse or fail with an error naming a line of the stream — never crash or hang.
@Suite struct EventStreamFuzzTests {
    static let seed: UInt64 = 0x5EED_F022
    static let iterations = 1000

    static let validStreams: [String] = [
        EmbeddedStream.text(pluginTypes: ["com.example.badge", "com.example.progress"]),
        """
        {"scene": {"appearance": "sidebar", "viewport": {"width": 320, "height": 480}, "scale": 3, "traits": {"style": "dark", "contentSize": "AX2"}}}
        {"section": {"id": "s", "header": "Header", "footer": "Footer"}}
        {"item": {"id": "a", "style": "subtitleCell", "set": {"text": "A", "secondaryText": "B", "textProperties.color": "#FF000080"}, "background": "listSidebarCell"}}
        {"item": {"id": "b", "type": "com.example.badge", "set": {"count": 3, "ratio": 0.5}, "handlers": [{"when": {"selected": true}, "set": {"count": 0}}]}}
        # a comment
        {"cell": "a", "highlighted": true}
        {"cell": ["a", "b"], "selected": true, "custom": {"paused": true}}
        {"traits": {"style": "light", "contentSize": "XS"}}
        {"cell": "b", "set": {"count": 12}}
        """,
    ]

    enum Mutation: CaseIterable { case truncate, flipBytes, hugeNumber, deepNesting, invalidUTF8, duplicateLine, dropLine }

    static func mutate(_ bytes: [UInt8], _ mutation: Mutation, _ random: inout SeededGenerator) -> [UInt8] {
        var b = bytes
        let at = Int.random(in: 0...b.count, using: &random)
        switch mutation {
        case .truncate:
            b.removeSubrange(at...)
        case .flipBytes:
            for _ in 0..<Int.random(in: 1...8, using: &random) where !b.isEmpty {
                b[Int.random(in: 0..<b.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case .hugeNumber:
            let numbers = ["1e999999", "-1e999999", "123456789012345678901234567890", "-9223372036854775809",
                           "0.000000000000000000000000000000000000000000000000001", "1" + String(repeating: "0", count: 5000)]
            if let digit = b.indices.filter({ (0x30...0x39).contains(b[$0]) }).randomElement(using: &random) {
                b.replaceSubrange(digit...digit, with: Array(numbers.randomElement(using: &random)!.utf8))
            }
        case .deepNesting:
            let depth = [63, 64, 65, 1000, 100_000].randomElement(using: &random)!
            let open: UInt8 = Bool.random(using: &random) ? 0x5B : 0x7B
            let nest = open == 0x5B ? [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth)
                : Array(String(repeating: #"{"a":"#, count: depth).utf8) + [0x31] + [UInt8](repeating: 0x7D, count: depth)
            if let colon = b.indices.filter({ b[$0] == 0x3A }).randomElement(using: &random) {
                b.insert(contentsOf: nest, at: colon + 1)
            } else {
                b.insert(contentsOf: nest, at: at)
            }
        case .invalidUTF8:
            let bad: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]]
            b.insert(contentsOf: bad.randomElement(using: &random)!, at: at)
        case .duplicateLine, .dropLine:
            var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            let i = Int.random(in: 0..<lines.count, using: &random)
            if mutation == .dropLine { lines.remove(at: i) } else { lines.insert(lines[i], at: i) }
            b = Array(lines.joined(separator: [0x0A]))
        }
        return b
    }

    /// Parses `bytes` as a stream: nil when it parsed, "" when it was refused as it should be, and
    /// a complaint when the refusal broke the rules.
    static func check(_ bytes: [UInt8], source: String) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        do {
            _ = try EventStreamParser.parse(text, source: source)
            return nil
        } catch {
            guard error.source == source, (1...lineCount).contains(error.line), !error.message.isEmpty else {
                return "bad error for a \(lineCount)-line stream: \(error)"
            }
            guard error.description.hasPrefix("\(source):\(error.line):") else { return "unlocated error: \(error)" }
            return ""
        }
    }

    @Test func mutatedStreamsParseOrFailWithALineNumber() {
        var random = SeededGenerator(seed: Self.seed)
        var seen: [Mutation: Int] = [:]
        var rejected = 0
        for i in 0..<Self.iterations {
            let original = Array(Self.validStreams.randomElement(using: &random)!.utf8)
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let mutation = Mutation.allCases.randomElement(using: &random)!
                seen[mutation, default: 0] += 1
                bytes = Self.mutate(bytes, mutation, &random)
            }
            switch Self.check(bytes, source: "fuzz.jsonl") {
            case nil: break
            case "": rejected += 1
            case let complaint?:
                Issue.record("iteration \(i) (seed \(Self.seed)): \(complaint)")
                return
            }
        }
        #expect(seen.count == Mutation.allCases.count)
        // Most mutations break a stream; the harness is useless if none do, or if all do.
        #expect(rejected > Self.iterations / 4 && rejected < Self.iterations)
    }

    @Test func theValidStreamsParse() throws {
        for stream in Self.validStreams { _ = try EventStreamParser.parse(stream, source: "valid.jsonl") }
    }

    /// Invalid UTF-8 read from a file goes through the same reader `cellhost run` uses.
    @Test func invalidUTF8FromAFileIsALocatedError() throws {
        let directory = try #require(makeTemporaryDirectory(prefix: "cellvalidation-fuzz"))
        let path = "\(directory)/bad.jsonl"
        var bytes = Array(Self.validStreams[1].utf8)
        let secondLine = bytes.firstIndex(of: 0x0A)! + 1
        bytes.insert(contentsOf: [0x22, 0xFF, 0xFE, 0x22, 0x3A], at: secondLine + 1)  // "\xFF\xFE": before the first key
        let file = fopen(path, "w")!
        fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        let reader = try LineReader(path: path)
        var parser = EventStreamParser(source: path)
        var number = 0
        var failure: EventStreamError?
        while let line = reader.nextLineBytes() {
            number += 1
            do { _ = try parser.parse(line: line, lineNumber: number) } catch { failure = error; break }
        }
        let error = try #require(failure)
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("\(path):2:"))
    }
}
