import CellIO
import CellProcess
import CellTestSupport
import Glibc
import Testing

/// Every command SDK/docs shows runs, and prints what the docs say it prints, so a guide cannot
/// go stale unnoticed.
///
/// The convention, also stated in SDK/docs/README.md: a fenced ```` ```console ```` block holds
/// `$ command` lines, each followed by the output it shows (stdout and stderr as a terminal
/// shows them, interleaved). In expected output, `…` inside a line stands for any text there
/// (a path, a timing), and a line that is `…` alone stands for any number of lines. Trailing
/// spaces are ignored. Each command runs under /bin/sh with the built tools first on PATH, in a
/// fresh folder holding the built sample plugins (libProgressMeter.so, libBadgeCell.so) and
/// the example streams of SDK/schema/examples, as the guides assume. A `$ cellhost` line outside
/// a console block fails: every command shown must be one this test runs.
@Suite struct DocumentedCommandTests {
    struct DocumentedCommand: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let command: String
        let expected: [String]
        var testDescription: String { "\(file):\(line) $ \(command)" }
    }

    static let docsDirectory = BuiltProducts.packageRoot + "/SDK/docs"
    static let docs: [String] = (directoryEntries(docsDirectory) ?? []).filter { $0.hasSuffix(".md") }.sorted()

    /// The commands of every console block, in document order.
    static let commands: [DocumentedCommand] = docs.flatMap { name in
        parse(readTextFile(docsDirectory + "/" + name) ?? "", file: name).commands
    }

    /// The console blocks' commands of one document, and the `$ cellhost` lines outside them.
    static func parse(_ text: String, file: String) -> (commands: [DocumentedCommand], stray: [Int]) {
        var commands: [DocumentedCommand] = []
        var stray: [Int] = []
        var fence: String?
        var current: (line: Int, command: String, expected: [String])?
        func finish() {
            if let c = current { commands.append(DocumentedCommand(file: file, line: c.line, command: c.command, expected: c.expected)) }
            current = nil
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if fence == nil { fence = String(trimmed.dropFirst(3)) } else { finish(); fence = nil }
                continue
            }
            if fence == "console" {
                if line.hasPrefix("$ ") {
                    finish()
                    current = (index + 1, String(line.dropFirst(2)), [])
                } else {
                    current?.expected.append(String(line))
                }
            } else if trimmed.hasPrefix("$ cellhost") {
                stray.append(index + 1)
            }
        }
        return (commands, stray)
    }

    /// A folder as the guides assume: the sample plugins and the example streams.
    static func workingFolder() -> String {
        let folder = BuiltProducts.temporaryDirectory(prefix: "cellhost-docs")
        for plugin in ["ProgressMeter", "BadgeCell"] {
            #expect(system("cp '\(BuiltProducts.samplePlugin(plugin))' '\(folder)/'") == 0)
        }
        #expect(system("cp '\(BuiltProducts.packageRoot)/SDK/schema/examples/'*.jsonl '\(folder)/'") == 0)
        return folder
    }

    /// Whether `actual` is a line `expected` describes: `…` stands for any text.
    static func lineMatches(_ expected: Substring, _ actual: Substring) -> Bool {
        let pieces = expected.split(separator: "…", omittingEmptySubsequences: false)
        guard pieces.count > 1 else { return expected == actual }
        guard actual.hasPrefix(pieces[0]) else { return false }
        var rest = actual.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.count >= pieces.last!.count && rest.hasSuffix(pieces.last!)
    }

    /// Whether `actual` is the output `expected` shows; a line `…` alone is any number of lines.
    static func outputMatches(_ expected: ArraySlice<Substring>, _ actual: ArraySlice<Substring>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            return outputMatches(expected.dropFirst(), actual) || (!actual.isEmpty && outputMatches(expected, actual.dropFirst()))
        }
        guard let line = actual.first, lineMatches(first, line) else { return false }
        return outputMatches(expected.dropFirst(), actual.dropFirst())
    }

    /// Lines without trailing spaces, without the empty lines a block or an output ends with.
    static func lines(_ text: [Substring]) -> [Substring] {
        var lines = text.map { line in line.prefix(line.count - line.reversed().prefix { $0 == " " }.count) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    @Test func theDocsShowCommandsAndOnlyInConsoleBlocks() {
        #expect(Self.commands.contains { $0.command.hasPrefix("cellhost symbols") })
        #expect(Self.commands.contains { $0.command.hasPrefix("cellhost inspect") })
        for name in Self.docs {
            let stray = Self.parse(readTextFile(Self.docsDirectory + "/" + name) ?? "", file: name).stray
            #expect(stray.isEmpty, "\(name): `$ cellhost` outside a ```console block on lines \(stray)")
        }
    }

    @Test func theMaskRules() {
        #expect(Self.lineMatches("ABI 1.1  loaded in … ms", "ABI 1.1  loaded in 1.8 ms"))
        #expect(!Self.lineMatches("ABI 1.1  loaded in … ms", "ABI 1.0  loaded in 1.8 ms"))
        #expect(Self.lineMatches("a…", "a"))
        #expect(!Self.lineMatches("ab…ba", "aba"))
        #expect(Self.outputMatches(["x", "…", "y"], ["x", "y"]))
        #expect(Self.outputMatches(["x", "…", "y"], ["x", "1", "2", "y"]))
        #expect(!Self.outputMatches(["x", "…", "y"], ["x", "1", "z"]))
    }

    @Test(arguments: commands)
    func aDocumentedCommandPrintsWhatTheDocsShow(_ documented: DocumentedCommand) throws {
        let folder = Self.workingFolder()
        let script = "cd '\(folder)' && PATH='\(BuiltProducts.buildDirectory)':\"$PATH\" && exec 2>&1 && \(documented.command)"
        let result = try WorkerProcess(executable: "/bin/sh", arguments: ["-c", script])
            .run(limits: WorkerLimits(totalSeconds: 300)) { _ in }
        let actual = Self.lines(result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false))
        let expected = Self.lines(documented.expected.map { Substring($0) })
        let matches = Self.outputMatches(expected[...], actual[...])
        #expect(matches, """
            \(documented.file):\(documented.line) $ \(documented.command)
            the docs show:
            \(expected.joined(separator: "\n"))
            it printed:
            \(actual.joined(separator: "\n"))
            """)
    }
}
