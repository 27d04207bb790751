import CellIO
import CellRuntime

/// What `cellhost test` will run, read from the streams before any runs: each stream's named
/// captures under each trait combination, with the ids sharding hashes and the files their
/// references live in. Reading the streams first reports a malformed line (file:line) without
/// loading any plugin, and lets a shard skip the streams it has no capture of.
public struct SnapshotPlan: Sendable {
    /// One named capture of one run (a stream, or one combination of its matrix).
    public struct Capture: Sendable, Equatable {
        /// The file stem: the capture's name plus the combination's (`selected.dark-AX3`).
        public var name: String
        /// The event whose frame it is.
        public var event: Int
        /// The first event its trace snapshot holds: the one after the stream's previous named
        /// capture (0, the first display, for the first capture).
        public var firstEvent: Int
        /// Stable across runs and machines: the stream's path and `name` (what `--shard` hashes).
        public var id: String
    }

    /// One run of a stream: the stream as written, or under one combination of its matrix.
    public struct Run: Sendable, Equatable {
        public var combination: Int?
        public var captures: [Capture]
    }

    public struct Stream: Sendable {
        public var path: String
        /// The stream's file name without `.jsonl` / `.cellhost.jsonl`: its references' folder.
        public var name: String
        public var referenceDirectory: String
        public var tolerance: ImageTolerance
        public var runs: [Run]
        /// Why the stream cannot run (it does not parse, or names no capture); it fails whole.
        public var problem: String?
    }

    public var streams: [Stream]

    /// `snapshots`: the folder holding one folder of references per stream; nil = the
    /// `__Snapshots__` folder next to each stream.
    public init(streams paths: [String], snapshots: String?, shard: Shard?) {
        streams = paths.map { SnapshotPlan.stream(at: $0, snapshots: snapshots, shard: shard) }
    }

    static func streamName(_ path: String) -> String {
        var file = Substring(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".cellhost.jsonl", ".jsonl"] where file.hasSuffix(suffix) {
            file = file.dropLast(suffix.count)
            break
        }
        return String(file)
    }

    static func stream(at path: String, snapshots: String?, shard: Shard?) -> Stream {
        let name = streamName(path)
        // A stream in the current folder keeps its paths short: `__Snapshots__/x`, not `./__Snapshots__/x`.
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let references = (snapshots ?? folder + StreamDiscovery.snapshotsFolder) + "/" + name
        var stream = Stream(path: path, name: name, referenceDirectory: references, tolerance: .exact, runs: [])
        guard let text = readTextFile(path) else {
            stream.problem = "cannot read \(path)"
            return stream
        }
        let scene: SceneDescription, events: [Event]
        do { (scene, events) = try EventStreamParser.parse(text, source: path) } catch {
            stream.problem = error.description
            return stream
        }
        stream.tolerance = scene.imageTolerance
        var named: [(name: String, event: Int, firstEvent: Int)] = []
        for event in events {
            for case .capture(let capture?, _) in event.actions {
                named.append((capture, event.number, named.last.map { $0.event + 1 } ?? 0))
            }
        }
        guard !named.isEmpty else {
            stream.problem = "\(path): the stream has no named capture; add one like {\"capture\": \"selected\"} after the events to check"
            return stream
        }
        let combinations: [(index: Int?, suffix: String)] = scene.matrix.map { matrix in
            matrix.combinations.enumerated().map { ($0.offset, "." + $0.element.name) }
        } ?? [(nil, "")]
        for combination in combinations {
            let captures = named.map { capture in
                Capture(name: capture.name + combination.suffix, event: capture.event, firstEvent: capture.firstEvent,
                        id: path + "#" + capture.name + combination.suffix)
            }.filter { shard?.includes($0.id) ?? true }
            if !captures.isEmpty { stream.runs.append(Run(combination: combination.index, captures: captures)) }
        }
        return stream
    }
}
