@testable import CellPlugins
import Glibc
import Testing

/// The loader checks identifiers, encodings and argument names on UTF-8 bytes and reads plugin
/// memory through remembered pages; each must decide exactly what the rule as written decides.
/// The references below are the rules written on `Character`s.
@Suite struct DescriptorRuleTests {
    static func referenceIsReverseDNS(_ id: String) -> Bool {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), labels[0].first!.isLetter else { return false }
        return labels.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } }
    }

    static func referenceIsIdentifier(_ name: String) -> Bool {
        name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { s in
            guard let first = s.first, first.isASCII, first.isLetter || first == "_" else { return false }
            return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }

    static let samples: [String] = [
        "", ".", "..", "a", "a.", ".a", "a.b", "a..b", "com.example.plugin", "com.example.plugin.", "1com.x", "com.1x",
        "com.ex-ample_2.z", "com.ex ample", "com.exämple", "cöm.example", "é.x", "e\u{301}.x", "com.\u{301}x", "com.x\u{301}",
        "a\r\nb.c", "com.example\r\n", "_a.b", "-a.b", "a.-b", "a._b", "A.B", "Z.z9", "@.a", "[.a", "`.a", "{.a",
        "value", "_value", "value2", "2value", "a.b.c", "a.2b", "a._", "a-b", "va lue", "valüe", "value\u{0}",
        "\u{1F600}.a", "a.\u{1F600}", "ａ.b", "a.ｂ", "٣.a", "a.٣",
    ]

    @Test func byteRulesDecideLikeTheCharacterRules() {
        for text in Self.samples {
            #expect(DescriptorValidator.isReverseDNS(text) == Self.referenceIsReverseDNS(text), "reverse DNS: \(text.debugDescription)")
            #expect(DescriptorValidator.isIdentifier(text) == Self.referenceIsIdentifier(text), "identifier: \(text.debugDescription)")
        }
    }

    @Test func argumentNamesSplitLikeTheCharacterRule() {
        func reference(_ text: String) -> [String] {
            text.split(separator: ",").map { String($0.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()) }
        }
        for text in ["", ",", "by", "by, animated", " by ,  animated  ", "a,,b", " , ", "a, b, c", "x ,\u{301}y", "é, ü ",
                     "a\r\n,b", "by,animated,"] {
            #expect(DescriptorValidator.argumentNames(text) == reference(text), "\(text.debugDescription)")
        }
    }

    @Test func encodingsParseOnBytesAndRefuseWithTheSameRemainder() throws {
        #expect(try ValueEncoding.parseList("dB{Size=dd}@T*q{Color=dddd}{Insets=dddd}")
                == [.double, .bool, .size, .transformer, .string, .int64, .color, .insets])
        #expect(try ValueEncoding.parseList("") == [])
        let refusals: [(String, String)] = [("dx", "x"), ("q\u{301}", "q\u{301}"), ("{Size=d}", "{Size=d}"), ("B@", "@"),
                                            ("{Colour=dddd}", "{Colour=dddd}"), ("dé", "é")]
        for (text, remainder) in refusals {
            #expect(throws: EncodingParseError(encoding: text, remainder: remainder)) { try ValueEncoding.parseList(text) }
        }
    }

    /// A page known readable is copied from directly; a read reaching a page never probed is
    /// probed, so an unmapped neighbour still refuses.
    @Test func probedMemoryRemembersReadablePagesOnly() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(mapping != MAP_FAILED)
        defer { munmap(mapping, page) }
        #expect(munmap(mapping + page, page) == 0)
        mapping.storeBytes(of: UInt64(0x1122_3344_5566_7788), toByteOffset: page - 8, as: UInt64.self)
        let memory = ProbedMemory()
        var value: UInt64 = 0
        #expect(memory.read(mapping + page - 8, into: &value))
        #expect(value == 0x1122_3344_5566_7788)
        mapping.storeBytes(of: UInt64(42), toByteOffset: page - 8, as: UInt64.self)
        #expect(memory.read(mapping + page - 8, into: &value), "a remembered page")
        #expect(value == 42)
        var pair: (UInt64, UInt64) = (0, 0)
        #expect(!memory.read(mapping + page - 8, into: &pair), "the second half lies on the unmapped page")
        #expect(!memory.read(mapping + page, into: &value))
        #expect(!memory.read(UnsafeRawPointer(bitPattern: UInt.max - 3), into: &value), "wraps around the address space")
        #expect(!memory.read(nil, into: &value))
    }
}
