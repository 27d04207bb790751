/// A unified diff (`diff -u` form) of two texts by lines, so a trace snapshot's change reads as
/// any code review shows one. Lines are matched by a longest common subsequence; texts too long
/// for that table are shown as one hunk replacing the whole.
public enum UnifiedDiff {
    /// Lines of context around each change.
    static let context = 3
    /// The most line pairs the common-subsequence table may hold.
    static let maximumTable = 4_000_000

    /// nil when the texts are equal.
    public static func diff(from old: String, to new: String, oldName: String, newName: String) -> String? {
        guard old != new else { return nil }
        let a = lines(old), b = lines(new)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Group edits into hunks: runs of changes with up to 2×context equal lines between them.
        var i = 0
        while i < edits.count {
            guard edits[i].kind != .same else { i += 1; continue }
            var start = i
            var back = 0
            while start > 0, back < context, edits[start - 1].kind == .same { start -= 1; back += 1 }
            var end = i
            while end < edits.count {
                if edits[end].kind != .same { end += 1; continue }
                var run = end
                while run < edits.count, edits[run].kind == .same { run += 1 }
                if run == edits.count || run - end > 2 * context { end = min(run, end + context); break }
                end = run
            }
            let hunk = edits[start..<end]
            let oldStart = hunk.first!.oldLine, newStart = hunk.first!.newLine
            let oldCount = hunk.filter { $0.kind != .added }.count, newCount = hunk.filter { $0.kind != .removed }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + edit.text + "\n"
                case .removed: out += "-" + edit.text + "\n"
                case .added: out += "+" + edit.text + "\n"
                }
            }
            i = end
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start - 1),0" : count == 1 ? "\(start)" : "\(start),\(count)"
    }

    private static func lines(_ text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    struct Edit {
        enum Kind { case same, removed, added }
        var kind: Kind
        var text: Substring
        /// 1-based line numbers in the old and new text where this edit sits.
        var oldLine: Int
        var newLine: Int
    }

    static func script(_ a: [Substring], _ b: [Substring]) -> [Edit] {
        let n = a.count, m = b.count
        guard (n + 1) * (m + 1) <= maximumTable else {
            return a.enumerated().map { Edit(kind: .removed, text: $0.element, oldLine: $0.offset + 1, newLine: 1) }
                + b.enumerated().map { Edit(kind: .added, text: $0.element, oldLine: n + 1, newLine: $0.offset + 1) }
        }
        // lcs[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lcs = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i * (m + 1) + j] = a[i] == b[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                edits.append(Edit(kind: .same, text: a[i], oldLine: i + 1, newLine: j + 1)); i += 1; j += 1
            } else if i < n, j == m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1] {
                // Removals before additions, as `diff -u` shows a changed line.
                edits.append(Edit(kind: .removed, text: a[i], oldLine: i + 1, newLine: j + 1)); i += 1
            } else {
                edits.append(Edit(kind: .added, text: b[j], oldLine: i + 1, newLine: j + 1)); j += 1
            }
        }
        return edits
    }
}
