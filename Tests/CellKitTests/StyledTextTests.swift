import Testing
@testable import CellKit

/// Line breaking of several runs with the fixed-advance measurer (every character 5 points at
/// 10 pt): where lines break, which run each piece keeps, and how tall each line is.
@Suite struct StyledTextTests {
    static let measurer = FixedAdvanceTextMeasurer()

    static func layout(_ runs: [AttributedText.Run], width: Double?, lines: Int = 0,
                       mode: LineBreakMode = .byWordWrapping) throws -> StyledText {
        let characters = try #require(StyledCharacters(several: AttributedText(runs), base: .systemFont(ofSize: 10),
                                                       properties: TextProperties(), direction: .leftToRight,
                                                       measurer: measurer))
        return StyledText(characters, width: width, numberOfLines: lines, lineBreakMode: mode)
    }

    static func texts(_ t: StyledText) -> [[String]] { t.lines.map { $0.pieces.map(\.text) } }

    @Test func breaksAtTheLastSpaceAcrossRunsAndKeepsEachRunsFont() throws {
        let t = try Self.layout([.init("aaa "), .init("bbb ccc", font: .systemFont(ofSize: 10), weight: .bold)], width: 40)
        #expect(Self.texts(t) == [["aaa", " bbb"], ["ccc"]], "a run's trailing space leads the next run")
        #expect(t.lines[1].pieces[0].font.weight == .bold && t.lines[0].pieces[1].font.weight == .bold)
        #expect(t.lines[0].pieces[1].x == 15, "pieces sit side by side")
        #expect(t.metrics.lineCount == 2 && t.metrics.size.height == 24)
    }

    @Test func aWordLongerThanTheLineBreaksBetweenCharactersAcrossRuns() throws {
        let runs: [AttributedText.Run] = [.init("abcdefghij"), .init("klm", color: .systemRed)]
        for mode in [LineBreakMode.byWordWrapping, .byCharWrapping] {
            let t = try Self.layout(runs, width: 25, mode: mode)
            #expect(Self.texts(t) == [["abcde"], ["fghij"], ["klm"]], "\(mode)")
            #expect(t.lines[2].pieces[0].color == .systemRed)
        }
        let chars = try Self.layout([.init("ab "), .init("cdef")], width: 25, mode: .byCharWrapping)
        #expect(Self.texts(chars) == [["ab", " cd"], ["ef"]], "character wrapping fills the line")
        let words = try Self.layout([.init("ab "), .init("cdef")], width: 25)
        #expect(Self.texts(words) == [["ab"], ["cdef"]], "word wrapping moves the word down")
    }

    @Test func eachLineIsAsTallAsItsTallestPiece() throws {
        let t = try Self.layout([.init("aa "), .init("BB", font: .systemFont(ofSize: 20)), .init(" cc dd")], width: 55)
        #expect(Self.texts(t) == [["aa", " BB", " cc"], ["dd"]])
        #expect(t.lines[0].ascent == 16 && t.lines[0].height == 24, "the 20-point run sets the first line")
        #expect(t.lines[1].top == 24 && t.lines[1].height == 12, "the second has only 10-point text")
        #expect(t.metrics.firstBaseline == 16 && t.metrics.lastBaseline == 24 + 8)
        #expect(t.lines[0].pieces.map(\.ascent) == [8, 16, 8], "each piece's own baseline, aligned to the line's when drawn")
    }

    @Test func numberOfLinesKeepsTheFirstLinesAndTruncatesTheLast() throws {
        let runs: [AttributedText.Run] = [.init("aaa "), .init("bbb ccc ddd eee")]
        let tail = try Self.layout(runs, width: 40, lines: 2, mode: .byTruncatingTail)
        #expect(tail.lines.count == 2 && tail.lines[1].pieces.last?.lineBreakMode == .byTruncatingTail)
        #expect(tail.lines[1].width <= 40)
        let wrapped = try Self.layout(runs, width: 40, lines: 2)
        #expect(Self.texts(wrapped) == [["aaa", " bbb"], ["ccc ddd"]], "word wrapping shows the line as wrapped")
        let unconstrained = try Self.layout(runs, width: nil)
        #expect(unconstrained.lines.count == 1 && unconstrained.metrics.size.width == 95)
    }
}
