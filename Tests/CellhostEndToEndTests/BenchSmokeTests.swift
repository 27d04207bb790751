import CellTestSupport
import Testing
import Glibc

/// The built `cellhost-bench --quick` prints one line per figure, each ending in `met` or
/// `missed`. Whether targets are met is not asserted: this runs a debug build.
@Suite struct BenchSmokeTests {
    static let bench = BuiltProducts.bench

    static let figureNames = [
        "single-cell state change → composited frame (in-memory engine)",
        "full repaint after a trait change (dark mode, in-memory engine)",
        "property set from a stream (typed C call)",
        "events per second, update + layout only (no raster, in-memory engine)",
        "plugin load (dlopen + entry + validation)",
        "resident memory, 1,000,000 items vs 1,000",
        "default stream with PNG frames",
        "cellhost run --frames as a process (one row repainted per event)",
        "cellhost test: 100 captures compared with references",
        "cellhost run as a process, worker vs in-process CPU per event",
        "cellhost run as a process, events that repaint nothing",
        "cellhost run as a process, events that repaint one row",
        "cellhost run as a process, worker memory scrolling a 1,000,000-item list",
        "cellhost run as a process, speed late in a long scroll",
        "cellhost run as a process, per-event cost of lists written one item per line",
        "cellhost run as a process, loading 100,000 items written one per line",
        "cellhost run as a process, memory after touching 10,000 distinct rows of 100,000 written",
    ]

    func run(_ arguments: String) throws -> (status: Int32, lines: [String]) {
        let pipe = try #require(popen("'\(Self.bench)' \(arguments) 2>&1", "r"))
        var output = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, 4096, pipe) != nil {
            output += String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(pipe)
        return (status, output.split(separator: "\n").map(String.init))
    }

    @Test func quickRunPrintsOneVerdictLinePerFigure() throws {
        let (status, lines) = try run("--quick")
        #expect(status == 0, "every figure was measured: \(lines)")
        #expect(lines.count == Self.figureNames.count, "one line per figure: \(lines)")
        for (line, name) in zip(lines, Self.figureNames) {
            #expect(line.hasPrefix(name + ": "), "\(line)")
            #expect(line.hasSuffix("; met") || line.hasSuffix("; missed"), "\(line)")
            #expect(line.contains("; target "), "\(line)")
        }
    }

    @Test func unknownArgumentIsAUsageError() throws {
        let (status, lines) = try run("--fast")
        #expect(status != 0)
        #expect(lines.first == "unknown argument --fast")
    }
}
