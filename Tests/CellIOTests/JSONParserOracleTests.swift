import CellIO
import Foundation
import Testing

/// The parser reads lines as Foundation's `JSONSerialization` does wherever both accept them:
/// the example streams and fuzzed lines (random values written with random escapes and
/// spacing, then cut and spliced). Where one of the two knowingly accepts more (see `check`), a
/// line only that one accepts is not a difference.
@Suite struct JSONParserOracleTests {
    /// Whether `ours` is the value Foundation read. Strings compare scalar by scalar (Swift's `==`
    /// would call composed and decomposed forms equal); Foundation on Linux reads `true` as 1.
    static func same(_ ours: JSON, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return (theirs as? NSNumber).map { $0.intValue == (b ? 1 : 0) } ?? false
        case .int(let i): return (theirs as? NSNumber).map { close(Double(i), $0) } ?? false
        case .double(let d): return (theirs as? NSNumber).map { close(d, $0) } ?? false
        case .string(let s): return (theirs as? String).map { Array($0.unicodeScalars) == Array(s.unicodeScalars) } ?? false
        case .array(let a):
            guard let b = theirs as? [Any], a.count == b.count else { return false }
            return zip(a, b).allSatisfy { same($0, $1) }
        case .object(let pairs):
            guard let d = theirs as? [String: Any], d.count == pairs.count else { return false }
            return pairs.allSatisfy { key, value in d[key].map { same(value, $0) } ?? false }
        }
    }

    /// Foundation keeps numbers of many digits as decimals, whose `doubleValue` may be off in the
    /// last place; cellhost reads them with `Double(_:)`, correctly rounded.
    static func close(_ d: Double, _ n: NSNumber) -> Bool {
        let theirs = n.doubleValue
        return d == theirs || abs(d - theirs) <= abs(d) * 1e-14
    }

    /// Whether a number overflowed: cellhost reads it as infinity, Foundation refuses the line.
    static func overflows(_ json: JSON) -> Bool {
        switch json {
        case .double(let d): !d.isFinite
        case .array(let a): a.contains(where: overflows)
        case .object(let pairs): pairs.contains { overflows($0.1) }
        default: false
        }
    }

    static func foundation(_ line: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    /// Parses `line` both ways and records a difference, except where cellhost is knowingly
    /// stricter (a key twice, a trailing comma, an unpaired surrogate escape, deep nesting) or more lenient (a
    /// number with leading zeros, or too big for a double).
    static func check(_ line: String, _ differences: inout [String]) {
        let theirs = foundation(line)
        switch Result(catching: { () throws(JSONSyntaxError) in try JSON.parse(line) }) {
        case .success(let ours):
            if let theirs {
                if !same(ours, theirs) { differences.append("\(line.debugDescription): cellhost \(ours.serialized), Foundation \(theirs)") }
            } else if !hasLeadingZero(line) && !overflows(ours) {
                differences.append("only cellhost accepts \(line.debugDescription)")
            }
        case .failure(let error):
            let stricter = ["appears twice", "unpaired surrogate", "nesting deeper", "trailing ','"].contains { error.reason.contains($0) }
            if theirs != nil && !stricter { differences.append("only Foundation accepts \(line.debugDescription): \(error)") }
        }
    }

    static func hasLeadingZero(_ line: String) -> Bool {
        let b = Array(line.utf8)
        return b.indices.dropLast().contains { i in
            b[i] == UInt8(ascii: "0") && (0x30...0x39).contains(b[i + 1])
                && (i == 0 || !(0x30...0x39).contains(b[i - 1]) && b[i - 1] != UInt8(ascii: "."))
        }
    }

    @Test func exampleStreamsReadAsFoundationReadsThem() throws {
        let folder = Self.packageRoot + "/SDK/schema/examples"
        let names = try #require(directoryEntries(folder)).filter { $0.hasSuffix(".jsonl") }
        #expect(names.count > 5)
        var differences: [String] = [], lines = 0
        for name in names {
            for line in (readTextFile("\(folder)/\(name)") ?? "").split(separator: "\n") where !line.hasPrefix("#") {
                lines += 1
                #expect(throws: Never.self, "\(name): \(line)") { try JSON.parse(String(line)) }
                Self.check(String(line), &differences)
            }
        }
        #expect(lines > 100)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test func fuzzedLinesReadAsFoundationReadsThem() {
        var random = SeededRandom(seed: 27)
        var differences: [String] = []
        var accepted = 0
        for _ in 0..<4_000 {
            let line = Self.randomText(&random, depth: 0)
            if (try? JSON.parse(line)) != nil { accepted += 1 }
            Self.check(line, &differences)
            for _ in 0..<3 { Self.check(Self.mutated(line, &random), &differences) }
        }
        #expect(accepted > 3_500, "the generator writes valid JSON")
        #expect(differences.isEmpty, "\(differences.count): \(differences.prefix(5))")
    }

    @Test func invalidUTF8InStringsIsReplacedAsStringDecodingReplacesIt() throws {
        let raw: [[UInt8]] = [[0xFF], [0x61, 0xC3], [0xE2, 0x82], [0x80, 0x80, 0x61], [0xF0, 0x9F, 0x91]]
        for bytes in raw {
            for (prefix, suffix) in [("", ""), (#"\n"#, ""), ("", #"\u00e9"#), (#"\""#, #"\ud83d\udc4d"#)] {
                let line = Array("[\"\(prefix)".utf8) + bytes + Array("\(suffix)\"]".utf8)
                let text = String(decoding: line, as: UTF8.self)
                let expected = try JSON.parse("[\"\(prefix)\"]").arrayValue![0].stringValue!
                    + String(decoding: bytes, as: UTF8.self)
                    + JSON.parse("[\"\(suffix)\"]").arrayValue![0].stringValue!
                let parsed = try line.withUnsafeBufferPointer { try JSON.parse(utf8: $0).get() }
                #expect(Array(parsed.arrayValue![0].stringValue!.unicodeScalars) == Array(expected.unicodeScalars))
                #expect(try JSON.parse(text) == parsed)
            }
        }
    }

    @Test func integersBeyondEighteenDigitsKeepTheirValue() throws {
        for text in ["999999999999999999", "-999999999999999999", "9223372036854775807", "-9223372036854775808",
                     "9223372036854775808", "12345678901234567890", "-0", "007", "0"] {
            let parsed = try JSON.parse(text)
            if let i = Int64(text) { #expect(parsed == .int(i) && parsed.intValue == i, "\(text)") } else {
                #expect(parsed == .double(Double(text)!), "\(text)")
            }
        }
    }

    // MARK: Generating lines

    static func randomText(_ r: inout SeededRandom, depth: Int) -> String {
        let space = [" ", "", "", "\t", "  "][r.next(5)]
        switch r.next(depth > 3 ? 5 : 8) {
        case 0: return "null"
        case 1: return r.next(2) == 0 ? "true" : "false"
        case 2: return randomNumber(&r)
        case 3, 4: return randomString(&r)
        case 5:
            return "[" + space + (0..<r.next(4)).map { _ in randomText(&r, depth: depth + 1) }.joined(separator: "," + space) + "]"
        default:
            let keys = (0..<r.next(5)).map { "k\($0)" + (r.next(3) == 0 ? "é\"\\" : "") }
            let members = keys.map { key in JSON.string(key).serialized + space + ":" + space + randomText(&r, depth: depth + 1) }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        }
    }

    static func randomNumber(_ r: inout SeededRandom) -> String {
        var s = r.next(3) == 0 ? "-" : ""
        let digits = 1 + r.next(r.next(4) == 0 ? 22 : 6)
        s += r.next(5) == 0 ? "0" : String(1 + r.next(9)) + (0..<(digits - 1)).map { _ in String(r.next(10)) }.joined()
        if r.next(3) == 0 { s += "." + (0..<(1 + r.next(8))).map { _ in String(r.next(10)) }.joined() }
        if r.next(5) == 0 { s += ["e", "E", "e+", "e-"][r.next(4)] + String(r.next(40)) }
        return s
    }

    static let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é",
                                             "\u{301}", "日", "\u{2028}", "\u{FFFF}", "👍", "\u{10FFFF}"]

    /// A string of random scalars, each written plainly when JSON allows, or escaped at random.
    static func randomString(_ r: inout SeededRandom) -> String {
        var s = "\""
        for _ in 0..<r.next(12) {
            let c = alphabet[r.next(alphabet.count)]
            let mustEscape = c == "\"" || c == "\\" || c.value < 0x20
            if mustEscape || r.next(4) == 0 {
                switch c {
                case "\"": s += #"\""#
                case "\\": s += #"\\"#
                case "/" where r.next(2) == 0: s += #"\/"#
                case "\n" where r.next(2) == 0: s += #"\n"#
                case "\t" where r.next(2) == 0: s += #"\t"#
                default:
                    for unit in String(c).utf16 {
                        let hex = String(unit, radix: 16, uppercase: r.next(2) == 0)
                        s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                }
            } else {
                s.unicodeScalars.append(c)
            }
        }
        return s + "\""
    }

    /// `line` with a few bytes deleted, repeated or replaced by JSON punctuation.
    static func mutated(_ line: String, _ r: inout SeededRandom) -> String {
        var scalars = Array(line.unicodeScalars)
        for _ in 0..<(1 + r.next(3)) where !scalars.isEmpty {
            let i = r.next(scalars.count)
            switch r.next(3) {
            case 0: scalars.remove(at: i)
            case 1: scalars.insert(scalars[i], at: i)
            default: scalars[i] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "u", "d", "8", "-", ".", "e", " "][r.next(15)]
            }
        }
        var s = ""
        s.unicodeScalars.append(contentsOf: scalars)
        return s
    }

    static var packageRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}

/// A reproducible generator (xorshift64*), so a failing line can be found again.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 2_685_821_657_736_338_717) >> 33) % max(bound, 1)
    }
}
