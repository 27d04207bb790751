/// A malformed line of an event stream, reported as `file:line: what is wrong`, the way compilers
/// report errors, so editors can jump to it.
public struct EventStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stream's name as the user gave it ("events.jsonl", "<stdin>", "<embedded>").
    public var source: String
    public var line: Int
    /// Character column inside the line, when the JSON itself is broken.
    public var column: Int?
    public var message: String

    public init(source: String, line: Int, column: Int? = nil, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        "\(source):\(line):\(column.map { "\($0): " } ?? " ")\(message)"
    }
}

/// "did you mean …?" for misspelt field names, appearance names and ids.
enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
    /// (at most a third of the word's length, and at least 1 edit allowed).
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(lowered, Array(candidate.lowercased()))
            if d < (best?.1 ?? .max) { best = (candidate, d) }
        }
        guard let best, best.1 <= max(1, lowered.count / 3) else { return nil }
        return best.0
    }

    /// " did you mean "x"?" or "" — ready to append to a message.
    static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Damerau–Levenshtein (optimal string alignment): a swapped pair of letters is one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }
}
