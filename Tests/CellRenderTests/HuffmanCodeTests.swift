import CPNGStripDeflate
import CZlib
import Testing

/// The Huffman code builder of the strip deflater's dynamic blocks: codes within deflate's length
/// limits, complete (every inflater accepts them), shortest for the most frequent symbols, and
/// canonical as RFC 1951 §3.2.2 defines them.
@Suite struct HuffmanCodeTests {
    private func lengths(_ counts: [UInt32], limit: UInt32 = 15) -> [UInt8] {
        var lengths = [UInt8](repeating: 0xEE, count: counts.count)
        counts.withUnsafeBufferPointer { c in
            lengths.withUnsafeMutableBufferPointer { cellhost_huffman_lengths(c.baseAddress, UInt32(counts.count), limit, $0.baseAddress) }
        }
        return lengths
    }

    /// The Kraft sum in units of 2^−15: exactly 2^15 for a complete prefix code.
    private func kraftSum(_ lengths: [UInt8]) -> Int {
        lengths.filter { $0 > 0 }.reduce(0) { $0 + (1 << (15 - Int($1))) }
    }

    /// Bits the counts take with the lengths.
    private func cost(_ counts: [UInt32], _ lengths: [UInt8]) -> Int {
        zip(counts, lengths).reduce(0) { $0 + Int($1.0) * Int($1.1) }
    }

    /// Every used symbol has a code, and a more frequent symbol never a longer one.
    private func expectConsistent(_ counts: [UInt32], _ lengths: [UInt8], limit: UInt8, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(kraftSum(lengths) == 1 << 15, "complete", sourceLocation: sourceLocation)
        #expect(lengths.allSatisfy { $0 <= limit }, "within \(limit) bits: \(lengths)", sourceLocation: sourceLocation)
        for (symbol, count) in counts.enumerated() where count > 0 {
            #expect(lengths[symbol] > 0, "symbol \(symbol) has a code", sourceLocation: sourceLocation)
        }
        for a in counts.indices where counts[a] > 0 {
            for b in counts.indices where counts[b] > counts[a] {
                #expect(lengths[b] <= lengths[a], "symbol \(b) (count \(counts[b])) no longer than \(a) (count \(counts[a]))",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Fibonacci counts make the deepest optimal tree (n symbols, n − 1 levels): the limit must
    /// cut it, for the literal/length alphabet (15 bits) and the code-length alphabet (7 bits).
    @Test func fibonacciCountsStayWithinTheLengthLimit() {
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 40 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for (symbols, used, limit) in [(286, 40, 15), (286, 25, 15), (30, 30, 15), (19, 19, 7), (19, 12, 7)] {
            // Spread over the alphabet with unused symbols between, as a strip's counts are.
            var counts = [UInt32](repeating: 0, count: symbols)
            for i in 0..<used { counts[(i * 7) % symbols] = fibonacci[i] }
            let result = lengths(counts, limit: UInt32(limit))
            expectConsistent(counts, result, limit: UInt8(limit))
            #expect(result.max() == UInt8(limit), "the limit is reached: \(used) symbols, limit \(limit)")
        }
    }

    /// Without a limit to cut, the code is optimal: the known Huffman lengths.
    @Test func smallAlphabetsGetOptimalLengths() {
        #expect(lengths([1, 1, 2, 4]) == [3, 3, 2, 1])
        #expect(lengths([5, 5, 5, 5]) == [2, 2, 2, 2])
        #expect(lengths([0, 10, 0, 1, 1, 0]) == [0, 1, 0, 2, 2, 0])
        // Against every complete code of four used symbols: none costs less.
        let counts: [UInt32] = [7, 3, 3, 2]
        let best = [[1, 2, 3, 3], [2, 2, 2, 2]].map { cost(counts, $0.map(UInt8.init)) }.min()!
        #expect(cost(counts, lengths(counts)) == best)
    }

    /// One used symbol gets a one-bit code paired with an unused symbol's, and an alphabet nothing
    /// uses (a strip with no match: no distance) gets two one-bit codes: RFC 1951 allows a single
    /// one-bit distance code, but a complete code is what every inflater accepts.
    @Test func aSingleUsedSymbolAndAnEmptyAlphabetGetTwoOneBitCodes() {
        #expect(lengths([0, 0, 7, 0]) == [1, 0, 1, 0])
        #expect(lengths([9, 0, 0]) == [1, 1, 0])
        #expect(lengths([UInt32](repeating: 0, count: 30)) == [1, 1] + [UInt8](repeating: 0, count: 28))
    }

    /// Every symbol of the literal/length alphabet used equally: 226 codes of 8 bits and 60 of 9
    /// fill the code exactly; with skewed counts over all of them, still complete and in order.
    @Test func allSymbolsUsed() {
        let equal = lengths([UInt32](repeating: 1, count: 286))
        #expect(equal.filter { $0 == 8 }.count == 226 && equal.filter { $0 == 9 }.count == 60)
        var g = SeededGenerator(state: 29)
        let skewed = (0..<286).map { _ in UInt32.random(in: 1...100_000, using: &g) >> UInt32.random(in: 0...16, using: &g) | 1 }
        expectConsistent(skewed, lengths(skewed), limit: 15)
    }

    /// RFC 1951 §3.2.2's example: lengths (3, 3, 3, 3, 3, 2, 4, 4) give the codes 010, 011, 100,
    /// 101, 110, 00, 1110, 1111, here bit-reversed for the least-significant-bit-first stream.
    @Test func canonicalCodesAreTheRFCsBitReversed() {
        let lengths: [UInt8] = [3, 3, 3, 3, 3, 2, 4, 4, 0]
        var codes = [UInt16](repeating: 0xFFFF, count: lengths.count)
        lengths.withUnsafeBufferPointer { l in codes.withUnsafeMutableBufferPointer { cellhost_huffman_codes(l.baseAddress, UInt32(lengths.count), $0.baseAddress) } }
        #expect(codes == [0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111, 0])
    }
}
