#if CommandLineTool
import CellIO
import Dispatch
import Glibc
import Hummingbird
import Logging
import ServiceLifecycle

/// `cellhost preview`: serves the report of the latest good run of a plugin over HTTP, re-runs
/// when the plugin or the stream changes, and tells open pages over server-sent events (`/live`)
/// to load the new run, or shows them why the new run failed while the last good one stays.
public struct PreviewServer: Sendable {
    public var plugin: String
    public var events: String?
    public var host: String
    public var port: Int
    /// How often the watched files are compared: often enough that a saved change reaches the
    /// open page while its author still looks at it; a comparison is only two `stat` calls.
    static let pollInterval = Duration.milliseconds(100)

    public init(plugin: String, events: String?, host: String, port: Int) {
        self.plugin = plugin
        self.events = events
        self.host = host
        self.port = port
    }

    /// Serves until SIGINT or SIGTERM, then removes its runs' folders. `onListening` gets the
    /// page's URL; `onRun` how each run went.
    public func serve(onListening: @escaping @Sendable (String) -> Void,
                      onRun: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        guard let root = makeTemporaryDirectory(prefix: "cellhost-preview") else {
            throw SinkError("cannot create a folder for the preview's runs under /tmp")
        }
        let runs = PreviewRuns(root: root, plugin: plugin, events: events, onRun: onRun)
        defer { runs.removeAll() }
        let watched = [plugin] + (events.map { [$0] } ?? [])
        let lastRun = WatchedFiles(paths: watched)
        await Self.onRunQueue { runs.runOnce() }

        let router = Router()
        router.get("/") { _, _ in Self.landing(runs.status) }
        router.get("/live") { _, _ in Self.liveStream(runs) }
        router.get("/run/:generation/**") { request, context in
            let generation = try context.parameters.require("generation", as: Int.self)
            let parts = context.parameters.getCatchAll()
            guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
                return Response(status: .notFound)
            }
            let rest = parts.joined(separator: "/")
            let path = runs.folder(of: generation) + "/" + rest
            guard let bytes = readFileBytes(path) else {
                // A run removed since the page loaded: send the page to the latest.
                if let latest = runs.status.generation, latest != generation {
                    return Response.redirect(to: "/run/\(latest)/\(rest)")
                }
                return Response(status: .notFound)
            }
            return Response(status: .ok, headers: [.contentType: Self.contentType(of: rest), .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let host = self.host
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "cellhost preview"),
            services: [Watcher(runs: runs, paths: watched, lastRun: lastRun)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shown):\(port)/")
            },
            logger: Logger(label: "cellhost-preview", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.runService()
    }

    /// A run blocks for as long as the stream takes: it goes to a thread of its own, off the
    /// server's event loops and the concurrency pool.
    static func onRunQueue(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "cellhost-preview-run").async { work(); done.resume() }
        }
    }

    /// Re-runs the stream once the watched files have changed and held still for one poll (a
    /// linker or an editor may still be writing at the first sight of a change).
    struct Watcher: Service {
        let runs: PreviewRuns
        let paths: [String]
        let lastRun: WatchedFiles

        func run() async throws {
            var lastRun = self.lastRun
            var previous = lastRun
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                try? await Task.sleep(for: PreviewServer.pollInterval)
                let now = WatchedFiles(paths: paths)
                defer { previous = now }
                guard now != lastRun, now == previous, !now.stamps.contains(nil) else { continue }
                lastRun = now
                await PreviewServer.onRunQueue { runs.runOnce() }
            }
        }
    }

    static func landing(_ status: PreviewRuns.Status) -> Response {
        if let generation = status.generation { return .redirect(to: "/run/\(generation)/report.html") }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: PreviewWaitingPage.html)))
    }

    /// `text/event-stream`: a `status` event now and at every change of the runs' status, until
    /// the client leaves or the server shuts down.
    static func liveStream(_ runs: PreviewRuns) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                 body: ResponseBody { writer in
                     var sent: PreviewRuns.Status?
                     var quiet = 0
                     while !Task.isShuttingDownGracefully && !Task.isCancelled {
                         let status = runs.status
                         if status != sent {
                             sent = status
                             quiet = 0
                             try await writer.write(ByteBuffer(string: "event: status\ndata: \(statusJSON(status))\n\n"))
                         } else if quiet >= 75 {
                             // A comment now and then: a proxy or the client learns the stream is alive.
                             quiet = 0
                             try await writer.write(ByteBuffer(string: ": alive\n\n"))
                         }
                         quiet += 1
                         try? await Task.sleep(for: .milliseconds(100))
                     }
                     try await writer.finish(nil)
                 })
    }

    static func statusJSON(_ status: PreviewRuns.Status) -> String {
        JSON.object([("generation", status.generation.map { .int(Int64($0)) } ?? .null),
                     ("failure", status.failure.map(JSON.string) ?? .null)]).serialized
    }

    static func contentType(of path: String) -> String {
        if path.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if path.hasSuffix(".png") { return "image/png" }
        if path.hasSuffix(".json") || path.hasSuffix(".jsonl") { return "application/json" }
        return "application/octet-stream"
    }
}
#endif
