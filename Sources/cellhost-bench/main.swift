import Glibc
import CellRuntime

/// cellhost-bench: the figures of BENCHMARKS.md, one line each, ending in `met` or `missed`.
/// `--quick` takes fewer samples (under a minute); `--only NAME` runs the figures whose name
/// contains NAME. Measure a release build. `--loop LOOP COUNT` runs only one figure's loop,
/// untimed, for a profiler: LOOP is `events-built-in`, `events-plugin` (either with `-recording`)
/// or `single-cell`; profile COUNT and 0 and subtract, so set-up and warm-up cancel out.
let usage = "usage: cellhost-bench [--quick] [--only NAME] | --loop events-built-in[-recording]|events-plugin[-recording]|single-cell|written-items COUNT"

func fail(_ message: String) -> Never {
    var err = message + "\n"
    err.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var quick = false
var only: String?
var residentItems: Int?
var profiledLoop: (loop: Figures.ProfiledLoop, count: Int)?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--quick": quick = true
    case "--only":
        guard !arguments.isEmpty else { fail("--only needs a name\n" + usage) }
        only = arguments.removeFirst()
    case "--resident-child":
        guard let n = arguments.first.flatMap({ Int($0) }), n > 0 else { fail("--resident-child needs an item count") }
        arguments.removeFirst()
        residentItems = n
    case "--loop":
        guard arguments.count >= 2, let loop = Figures.ProfiledLoop(rawValue: arguments[0]),
              let count = Int(arguments[1]), count >= 0
        else { fail("--loop needs a loop (events-built-in, events-plugin, either with -recording, single-cell or written-items) and a count\n" + usage) }
        profiledLoop = (loop, count)
        arguments.removeFirst(2)
    case "-h", "--help": print(usage); exit(0)
    default: fail("unknown argument \(argument)\n" + usage)
    }
}

let pluginPaths = RunSession.samplePluginPaths()
let list: BenchList
do { list = try BenchList(pluginPaths: pluginPaths) } catch { fail("cannot set up the bench list: \(error)") }

if let residentItems {
    do { print("rss-kb \(try Figures.residentChild(items: residentItems, list: list))") } catch { fail("\(error)") }
    exit(0)
}

if let profiledLoop {
    do { try Figures.run(profiledLoop.loop, count: profiledLoop.count, list: list) } catch { fail("\(error)") }
    exit(0)
}

let figures = Figures(list: list, quick: quick, executable: Executable.path(), pluginPaths: pluginPaths,
                      processRun: ProcessRunMeasurement(executable: Executable.path(), quick: quick),
                      processRows: ProcessRowsMeasurement(executable: Executable.path(), quick: quick))
let all: [(String, () throws -> FigureLine)] = [
    ("single-cell", figures.singleCellFrame),
    ("trait", figures.traitRepaint),
    ("ffi", figures.ffiSetter),
    ("events", figures.eventsPerSecond),
    ("load", figures.pluginLoad),
    ("memory", figures.residentMemory),
    ("png", figures.pngFrames),
    ("frames-process", figures.processFrames),
    ("snapshots", figures.snapshotComparison),
    ("process-cpu", figures.processCPURatio),
    ("process-rate", figures.processOffScreenRate),
    ("process-repaint", figures.processVisibleRowRepaint),
    ("rows-scroll-memory", figures.rowsScrollMemory),
    ("rows-scroll-speed", figures.rowsScrollSpeed),
    ("rows-written-events", figures.rowsWrittenPerEvent),
    ("rows-written-load", figures.rowsWrittenLoad),
    ("rows-written-touched", figures.rowsWrittenTouched),
]
var failed = false
for (key, figure) in all where only.map({ key.contains($0) }) ?? true {
    do {
        print(try figure().text)
    } catch {
        print("\(key): not measured: \(error); missed")
        failed = true
    }
    fflush(nil)
}
exit(failed ? 1 : 0)
