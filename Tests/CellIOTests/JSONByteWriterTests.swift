import CellIO
import Testing

/// The byte writer writes what `JSON.serialized` writes for the same values: trace files keep
/// their exact bytes whichever encoder wrote them.
@Suite struct JSONByteWriterTests {
    static let awkwardStrings: [String] = [
        "", "plain", "say \"hi\"", #"back\slash"#, "tab\tnew\nline\rreturn", "\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}",
        String((0..<0x20).map { Character(Unicode.Scalar($0)!) }), "del \u{7F}", "é à ü", "日本語", "👍🏽 family 👨‍👩‍👧",
        "line\u{2028}separator", "\u{FEFF}bom", String(decoding: [0xED, 0xA0, 0x80], as: UTF8.self) /* a lone surrogate, replaced */,
        String(decoding: [0x61, 0xFF, 0x62, 0xC3], as: UTF8.self), "ends with a quote\"", "\"", "\\", "/slash/",
    ]

    static func written(_ write: (JSONByteWriter) -> Void) -> String {
        let out = JSONByteWriter(capacity: 8)  // small, so writes cross growth
        write(out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test func stringsAreEscapedAsTheTreeWriterEscapesThem() throws {
        for s in Self.awkwardStrings {
            #expect(Self.written { $0.string(s) } == JSON.string(s).serialized, "\(s.debugDescription)")
            #expect(try JSON.parse(Self.written { $0.string(s) }) == .string(s))
        }
        let pieces = Self.written {
            $0.byte(UInt8(ascii: "\""))
            for s in Self.awkwardStrings { $0.stringContent(s) }
            $0.byte(UInt8(ascii: "\""))
        }
        #expect(pieces == JSON.string(Self.awkwardStrings.joined()).serialized)
    }

    @Test func numbersTakeTheTreeWritersForms() {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, -0.1, 0.5, -0.5, 12.3, 99999999999999.9, -99999999999999.9, 1e14, 1e15 - 1, 1e15, -1e15,
            1e16, 1e20, 1.5e300, 123456.7, 0.05, 0.15, 2.675, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .nan, .infinity, -.infinity, 1.0 / 3, 2.0 / 3, 0.333, 390.5, 33.333333333333336,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -8...16, using: &generator)
            let d = (Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 1..<10, using: &generator) * pow10(magnitude)
            values += [d, (d * 10).rounded() / 10, (d * 1000).rounded() / 1000, d.rounded()]
        }
        for d in values {
            #expect(Self.written { $0.number(d) } == JSON.double(d).serialized, "\(d)")
        }
    }

    private func pow10(_ e: Double) -> Double {
        var p = 1.0
        for _ in 0..<Int(abs(e)) { p *= 10 }
        return e < 0 ? 1 / p : p
    }

    @Test func integersAndLiteralsAreTheTreeWriters() {
        for i: Int64 in [0, 1, -1, 9, 10, -10, 1_000_000, .max, .min, .max - 1, .min + 1] {
            #expect(Self.written { $0.int64(i) } == JSON.int(i).serialized)
        }
        #expect(Self.written { $0.int(Int.min) } == String(Int.min))
        #expect(Self.written { $0.bool(true); $0.bool(false); $0.null() } == "truefalsenull")
        #expect(Self.written { $0.strings(["a", "\"b\""]) } == JSON.array([.string("a"), .string("\"b\"")]).serialized)
        #expect(Self.written { $0.strings([]) } == "[]")
    }

    @Test func aValueWrittenParsesBackAsItsTree() {
        let json = JSON { out in
            out.raw(#"{"a":"#); out.number(2.5); out.raw(#","b":"#); out.strings(["x", "y"]); out.raw("}")
        }
        #expect(json == .object([("a", .double(2.5)), ("b", .array([.string("x"), .string("y")]))]))
    }

    @Test func removeAllKeepsTheBufferForTheNextRecord() {
        let out = JSONByteWriter(capacity: 8)
        out.string(String(repeating: "x", count: 1000))
        out.removeAll()
        out.int(42)
        #expect(String(decoding: out.bytes, as: UTF8.self) == "42")
    }
}
