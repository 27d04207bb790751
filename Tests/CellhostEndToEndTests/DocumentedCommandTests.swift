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
/// shows them). In expected output, `…` inside a line stands for any text there (a path, a
/// timing), and a line that is `…` alone stands for any number of lines. Trailing spaces and
/// trailing empty lines are ignored. A block is one terminal session: its commands run in order
/// in one /bin/sh (so `export` and `cd` carry on to the next), with the built tools first on
/// PATH, in a fresh folder holding the built sample plugins (libProgressMeter.so,
/// libBadgeCell.so), the C sample's source (progress_meter.c) and the example streams of
/// SDK/schema/examples, as the guides assume. A `$ cellhost` line outside a console block
/// fails: every cellhost command shown with a prompt is one this test runs.
@Suite struct DocumentedCommandTests {
    struct DocumentedCommand: Sendable {
        let line: Int
        let command: String
        var expected: [String]
    }

    struct ConsoleBlock: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        var commands: [DocumentedCommand]
        var testDescription: String { "\(file):\(line)" }
    }

    static let docsDirectory = BuiltProducts.packageRoot + "/SDK/docs"
    static let docs: [String] = (directoryEntries(docsDirectory) ?? []).filter { $0.hasSuffix(".md") }.sorted()

    /// The console blocks of every document, in document order.
    static let blocks: [ConsoleBlock] = docs.flatMap { name in
        parse(readTextFile(docsDirectory + "/" + name) ?? "", file: name).blocks
    }

    /// The console blocks of one document, and the lines of `$ cellhost` outside them.
    static func parse(_ text: String, file: String) -> (blocks: [ConsoleBlock], stray: [Int]) {
        var blocks: [ConsoleBlock] = []
        var stray: [Int] = []
        var fence: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if fence == nil {
                    fence = String(trimmed.dropFirst(3))
                    if fence == "console" { blocks.append(ConsoleBlock(file: file, line: index + 1, commands: [])) }
                } else {
                    fence = nil
                }
                continue
            }
            if fence == "console" {
                if line.hasPrefix("$ ") {
                    blocks[blocks.count - 1].commands.append(DocumentedCommand(line: index + 1, command: String(line.dropFirst(2)), expected: []))
                } else if !blocks[blocks.count - 1].commands.isEmpty {
                    blocks[blocks.count - 1].commands[blocks[blocks.count - 1].commands.count - 1].expected.append(String(line))
                }
            } else if trimmed.hasPrefix("$ cellhost") {
                stray.append(index + 1)
            }
        }
        return (blocks, stray)
    }

    /// A folder as the guides assume: the sample plugins, the C sample's source, the example streams.
    static func workingFolder() -> String {
        let folder = BuiltProducts.temporaryDirectory(prefix: "cellhost-docs")
        for plugin in ["ProgressMeter", "BadgeCell"] {
            #expect(system("cp '\(BuiltProducts.samplePlugin(plugin))' '\(folder)/'") == 0)
        }
        let root = BuiltProducts.packageRoot
        #expect(system("cp '\(root)/Plugins/ProgressMeter/progress_meter.c' '\(root)/SDK/schema/examples/'*.jsonl '\(folder)/'") == 0)
        return folder
    }

    /// Printed before each command's output, to cut the session's output into the commands'.
    static let separator = "@@ cellhost documented command @@"

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
        let commands = Self.blocks.flatMap(\.commands)
        #expect(commands.contains { $0.command.hasPrefix("cellhost symbols") })
        #expect(commands.contains { $0.command.hasPrefix("cellhost inspect") })
        #expect(Self.blocks.allSatisfy { !$0.commands.isEmpty }, "a console block without a `$ ` command")
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

    @Test(arguments: blocks)
    func aConsoleBlockPrintsWhatTheDocsShow(_ block: ConsoleBlock) throws {
        let folder = Self.workingFolder()
        var script = "cd '\(folder)' && PATH='\(BuiltProducts.buildDirectory)':\"$PATH\" && exec 2>&1\n"
        for documented in block.commands {
            script += "printf '\\n%s\\n' '\(Self.separator)'\n\(documented.command)\n"
        }
        let result = try WorkerProcess(executable: "/bin/sh", arguments: ["-c", script])
            .run(limits: WorkerLimits(totalSeconds: 300)) { _ in }
        let outputs = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .split(separator: Substring(Self.separator), omittingEmptySubsequences: false).dropFirst()
        #expect(outputs.count == block.commands.count, "the session stopped early: \(result.standardOutput)")
        for (documented, output) in zip(block.commands, outputs) {
            let actual = Self.lines(Array(output))
            let expected = Self.lines(documented.expected.map { Substring($0) })
            let matches = Self.outputMatches(expected[...], actual[...])
            #expect(matches, """
                \(block.file):\(documented.line) $ \(documented.command)
                the docs show:
                \(expected.joined(separator: "\n"))
                it printed:
                \(actual.joined(separator: "\n"))
                """)
        }
    }
}
