import CellIO
import ArgumentParser
import CellRuntime
import CellProcess

/// `cellhost inspect PATH`: what a plugin provides — metadata, types, properties with their
/// types, actions with their signatures — loaded in a child process under a time limit, so a
/// plugin that crashes, exits, hangs or floods its output is reported, not fatal.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a plugin's metadata, configuration types, properties and actions.",
        discussion: """
            The plugin is loaded in a child process. Exit status: 0 success, 2 usage error, \
            3 the plugin was refused (not a plugin, wrong ABI, invalid descriptor), \
            4 the plugin crashed, exited, hung or flooded its output while loading.
            """)

    @Argument(help: "The plugin library (.so).") var path: String
    @Flag(help: "Print the report as JSON (schema cellhost.plugin/1).") var json = false
    @Option(help: "Seconds the plugin may take to load.") var timeout: Double = 10

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let report = Self.inspect(path: path, timeout: timeout)
        if json {
            Console.out(report.serialized + "\n")
        } else if report["ok"]?.boolValue == true {
            Console.out(Self.table(report))
        }
        if report["ok"]?.boolValue != true {
            let message = report["error"]?.stringValue ?? "\(path): inspection failed"
            if !json { Console.error("cellhost inspect: \(message)\n") }
            throw ExitCode(report["outcome"]?.stringValue == "refused" ? ExitStatus.pluginLoadFailed : ExitStatus.pluginFailed)
        }
    }

    /// Loads `path` in a worker and returns its report, or a failure naming what the worker did.
    static func inspect(path: String, timeout: Double) -> JSON {
        let worker = WorkerProcess(arguments: ["inspect-worker", path])
        var record: String?
        let result: WorkerResult
        do {
            result = try worker.run(limits: WorkerLimits(totalSeconds: timeout, outputBytes: 1 << 20)) { line in
                if record == nil { record = line }
            }
        } catch {
            return PluginReportJSON.failure(path: path, error: "\(path): \(error.description)", outcome: "failed")
        }
        if let record, let parsed = try? JSON.parse(record), result.termination.isSuccess { return parsed }
        let what: String = switch result.termination {
        case .exited(let code) where record == nil: "ended the process with exit status \(code) while loading"
        case .signaled(let signal): "crashed with \(signalName(signal)) while loading"
        case .timedOut(let seconds): "did not finish loading within \(formatSeconds(seconds)) and was stopped"
        case .outputFlood(let bytes): "flooded its output (\(bytes) bytes) while loading and was stopped"
        case .exited(let code): "sent an unreadable report and exited with status \(code)"
        }
        return PluginReportJSON.failure(path: path, error: "\(path): the plugin \(what)", outcome: "failed")
    }

    private static func formatSeconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }

    /// The human report: metadata, then one table per type.
    static func table(_ report: JSON) -> String {
        func field(_ key: String) -> String { report[key]?.stringValue ?? "" }
        var out = "Plugin   \(field("id"))  \(field("name")) \(field("version")) by \(field("vendor"))\n"
        if let summary = report["description"]?.stringValue { out += "         \(summary)\n" }
        let micros = report["loadMicroseconds"]?.intValue ?? 0
        out += "ABI      \(field("abi"))  loaded in \(micros / 1000).\(String(micros % 1000 / 100)) ms\n"
        out += "File     \(field("path"))\n"
        for type in report["types"]?.arrayValue ?? [] {
            let id = type["id"]?.stringValue ?? ""
            let name = type["displayName"]?.stringValue.flatMap { $0 == id ? nil : " (\($0))" } ?? ""
            out += "\nType \(id)\(name)\n"
            let properties = (type["properties"]?.arrayValue ?? []).map { p in
                [p["name"]?.stringValue ?? "", p["type"]?.stringValue ?? "", p["encoding"]?.stringValue ?? "",
                 p["readOnly"]?.boolValue == true ? "read-only" : ""]
            }
            out += columns(["PROPERTY", "TYPE", "ENCODING", ""], properties)
            let actions = (type["actions"]?.arrayValue ?? []).map { a in
                [a["signature"]?.stringValue ?? "", a["encoding"]?.stringValue.map { $0.isEmpty ? "-" : $0 } ?? ""]
            }
            if !actions.isEmpty { out += columns(["ACTION", "ENCODING"], actions) }
            if type["cellUpdateHook"]?.boolValue == true { out += "  has a cell-level update_configuration hook\n" }
            if type["pureRestyle"]?.boolValue == true {
                out += "  restyle declared pure: cells reuse a restyle made for an equal state\n"
            }
        }
        return out
    }

    /// Left-aligned columns, two spaces apart, indented by two.
    private static func columns(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            var line = "  "
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
