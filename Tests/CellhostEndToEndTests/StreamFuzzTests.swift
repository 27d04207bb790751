import CellIO
import CellProcess
import CellTestSupport
import CellValidation
import Glibc
import Testing
@testable import CellRuntime

/// A seeded fuzz run of `cellhost run` as a user runs it, parser and engine in the worker with the
/// sample plugins: byte-level mutations of the SDK's example streams and the embedded stream, and
/// valid streams setting schema-valid extreme values. Every stream must end in success or bad
/// input whose message names the file and line — never a crash, a hang or a blamed plugin.
/// `CELLHOST_FUZZ_STREAMS=N` runs N streams instead of the default handful.
@Suite struct StreamFuzzTests {
    static let seed: UInt64 = 0x2026_1126
    static let defaultCount = 16
    static var count: Int {
        getenv("CELLHOST_FUZZ_STREAMS").flatMap { Int(String(cString: $0)) } ?? defaultCount
    }

    static let examples = BuiltProducts.packageRoot + "/SDK/schema/examples"

    static var seedStreams: [String] {
        let files = (directoryEntries(examples) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        return files.compactMap { readTextFile(examples + "/" + $0) }
            + [EmbeddedStream.text(pluginTypes: ["com.cellhost.samples.progress", "com.cellhost.samples.badge"])]
    }

    /// Host properties and values past, at and around the bounds the host accepts.
    static let extremeSets: [String] = [
        #""imageToTextPadding": 1e308"#, #""imageToTextPadding": -1e300"#, #""directionalLayoutMargins": 1e300"#,
        #""directionalLayoutMargins": {"top": 10000, "leading": -10000}"#, #""textProperties.font": {"pointSize": 100000}"#,
        #""textProperties.font": 1000"#, #""textProperties.font": 0.0001"#, #""textProperties.numberOfLines": 25000000"#, #""textProperties.numberOfLines": 10000"#,
        #""textProperties.numberOfLines": -1"#, #""textToSecondaryTextVerticalPadding": 1e306"#,
        #""imageProperties.preferredSymbolConfiguration": 1e9"#, #""imageProperties.reservedLayoutSize": {"width": 1e300, "height": 1e300}"#,
        #""imageProperties.maximumSize": {"width": 10000, "height": 10000}"#, #""imageProperties.cornerRadius": 1e300"#,
        #""text": "\#(String(repeating: "long ", count: 30_000))""#, #""image": "/dev/zero""#, #""image": "/""#,
        #""secondaryText": "\#(String(repeating: "\u{0301}", count: 20_000))""#,
    ]
    static let extremeBackgrounds: [String] = [
        #""strokeWidth": 1e300"#, #""strokeWidth": 10000"#, #""cornerRadius": 1e300"#, #""cornerRadius": 10000"#,
        #""visualEffect": 1e9"#, #""visualEffect": 1000"#, #""backgroundInsets": {"top": 1e300}"#,
    ]

    static func extremeStream(_ random: inout SeededGenerator) -> String {
        let set = extremeSets.randomElement(using: &random)!, background = extremeBackgrounds.randomElement(using: &random)!
        return """
            {"scene": {"viewport": {"width": 390, "height": 400}, "scale": \([1, 2, 3].randomElement(using: &random)!)}}
            {"section": {"id": "s"}}
            {"item": {"id": "a", "style": "subtitleCell", "set": {"text": "A", "secondaryText": "B", "image": "star.fill"}}}
            {"item": {"id": "b", "background": {"set": {\(background)}}, "set": {"text": "B"}}}
            {"cell": "a", "set": {\(set)}}
            {"cell": "b", "selected": true}
            {"scroll": {"to": \(["1e300", "1000000", "-1e300", "0"].randomElement(using: &random)!)}}

            """
    }

    static func mutated(_ text: String, _ random: inout SeededGenerator) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2:
                if let digit = bytes.indices.filter({ (0x30...0x39).contains(bytes[$0]) }).randomElement(using: &random) {
                    let numbers = ["1e308", "-1e308", "100000", "25000000", "1e300", "0", "-0.5"]
                    bytes.replaceSubrange(digit...digit, with: Array(numbers.randomElement(using: &random)!.utf8))
                }
            case 3: bytes.insert(contentsOf: Array(bytes[at..<min(bytes.count, at + 200)]), at: at)
            default: bytes.remove(at: at)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What broke the rules for one stream, nil when it ended as it should.
    static func check(_ stream: String, in dir: String, index: Int) throws -> String? {
        let path = "\(dir)/fuzz-\(index).jsonl"
        writeFile(stream, to: path)
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--events", path, "--trace", "\(dir)/trace-\(index).jsonl",
                                                   "--timeout", "10", "--quiet"])
            .run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        guard case .exited(let status) = result.termination else { return "\(path): \(result.termination)" }
        switch status {
        case 0: return nil
        case 1:
            let message = result.standardError
            let lineCount = stream.split(separator: "\n", omittingEmptySubsequences: false).count
            let named = (1...max(1, lineCount)).contains { message.contains("\(path):\($0):") }
            return named ? nil : "\(path): the error does not name the file and line: \(message)"
        default: return "\(path): exit \(status): \(result.standardError)"
        }
    }

    @Test func mutatedAndExtremeStreamsNeverCrashOrHang() throws {
        var random = SeededGenerator(seed: Self.seed)
        let seeds = Self.seedStreams
        #expect(seeds.count >= 5)
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-stream-fuzz")
        var problems: [String] = []
        for index in 0..<Self.count {
            let stream = index % 2 == 0 ? Self.extremeStream(&random) : Self.mutated(seeds.randomElement(using: &random)!, &random)
            if let problem = try Self.check(stream, in: dir, index: index) { problems.append(problem) }
        }
        #expect(problems.isEmpty, "seed \(Self.seed), \(Self.count) streams:\n\(problems.joined(separator: "\n"))")
    }
}
