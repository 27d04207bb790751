import CCellHostABI
import CFFI
import CellKit
import Glibc
import Synchronization

/// A message a plugin logged through the host services.
public struct PluginLogMessage: Sendable, Hashable {
    public enum Level: Int32, Sendable, Hashable { case debug = 0, info, warning, error }
    public var pluginID: String
    public var level: Level
    public var text: String

    public init(pluginID: String, level: Level, text: String) {
        self.pluginID = pluginID
        self.level = level
        self.text = text
    }

    /// Bounds on what plugin logging can put into a run's output, so a plugin logging in a loop
    /// can neither bury the trace nor exhaust memory. These are limits (trace.schema.json states
    /// them), not measurements.
    public enum Limits {
        /// A longer message is cut at the last whole character within this many UTF-8 bytes, and
        /// ends with "…"; the host never reads further into the plugin's string.
        public static let messageBytes = 1024
        /// Messages a run shows per plugin per event (loading counts as one event); the rest are
        /// counted and reported once, when the event ends.
        public static let messagesPerEvent = 16
    }

    /// The text of a plugin's C string, read no further than `Limits.messageBytes` + 1 bytes:
    /// a longer one is cut at a character boundary and marked "…"; invalid UTF-8 is repaired.
    static func text(of pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        let limit = Limits.messageBytes
        let length = strnlen(pointer, limit + 1)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            guard length > limit else { return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self) }
            // Back up over continuation bytes (10xxxxxx) so the cut falls before a whole character.
            var end = limit
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: end), as: UTF8.self) + "…"
        }
    }
}

/// Where plugin log messages and embedded list content come from. The defaults log to stderr
/// and embed the host's `ListContentConfiguration`.
public enum PluginHostEnvironment {
    /// A handler kept as a struct field, not as a bare function value: a `Mutex` of a function type
    /// reabstracts it on every `withLock`, and writing it back wrapped it in one more thunk each
    /// time, so every message cost more than the one before and the stack overflowed in the end.
    private struct LogReceiver: Sendable {
        let receive: @Sendable (PluginLogMessage) -> Void
    }

    private static let logHandler = Mutex(LogReceiver { message in
        var line = "[\(message.pluginID)] \(message.level): \(message.text)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    })
    /// The provider, and how many times it was set: embedded views keep what an earlier
    /// provider gave only while it is still the one set.
    private static let listProvider = Mutex<(provider: (any EmbeddedListContentProvider)?, generation: Int)>(
        (ListContentEmbedding(), 0))
    /// `listProvider`'s generation, stored with it under the lock, read without it: content set
    /// again alike only asks whether the provider is still the one it was made with.
    private static let listProviderGeneration = Atomic<Int>(0)

    /// Handlers bound to one thread by `withLogHandler(onThisThread:_:)`, by thread.
    private static let threadLogHandlers = Mutex<[pthread_t: LogReceiver]>([:])

    /// Receives every message any plugin logs (from any thread), except those logged on a thread
    /// that has its own handler. Returns the handler it replaces, for a caller that restores it.
    @discardableResult
    public static func setLogHandler(_ handler: @escaping @Sendable (PluginLogMessage) -> Void)
        -> @Sendable (PluginLogMessage) -> Void
    {
        logHandler.withLock { current in
            defer { current = LogReceiver(receive: handler) }
            return current.receive
        }
    }

    /// Runs `body` with `handler` receiving the messages plugins log on this thread, and restores
    /// what this thread had before. A run binds its trace to the thread it runs plugins on, so
    /// runs and other callers on other threads of one process never receive each other's messages.
    public static func withLogHandler<Result>(onThisThread handler: @escaping @Sendable (PluginLogMessage) -> Void,
                                              _ body: () -> Result) -> Result {
        let thread = pthread_self()
        let previous = threadLogHandlers.withLock { $0.updateValue(LogReceiver(receive: handler), forKey: thread) }
        defer { threadLogHandlers.withLock { $0[thread] = previous } }
        return body()
    }

    /// Supplies the host `ListContentView`s plugins embed.
    public static func setListContentProvider(_ provider: (any EmbeddedListContentProvider)?) {
        listProvider.withLock {
            $0 = (provider, $0.generation + 1)
            listProviderGeneration.store($0.generation, ordering: .releasing)
        }
    }

    static func log(_ message: PluginLogMessage) {
        let handler = threadLogHandlers.withLock { $0[pthread_self()] } ?? logHandler.withLock { $0 }
        handler.receive(message)
    }
    static var listContentProvider: (any EmbeddedListContentProvider)? { listProvider.withLock { $0.provider } }
    /// How many times a provider was set, without copying the provider.
    static var listContentProviderGeneration: Int { listProviderGeneration.load(ordering: .acquiring) }
    static var listContentProviderAndGeneration: (provider: (any EmbeddedListContentProvider)?, generation: Int) {
        listProvider.withLock { $0 }
    }
}

/// Builds the list content configurations that plugins embed (`list_view_*` in plugin.h):
/// a `ListContentConfiguration` of a named style with the given content, updated for a state.
public protocol EmbeddedListContentProvider: Sendable {
    /// nil when the style is unknown.
    func configuration(style: String, text: String?, secondaryText: String?, symbolName: String?,
                       state: (any ConfigurationState)?) -> (any ContentConfiguration)?

    /// Whether `configuration(style:…)` gives equal configurations for states `a` and `b` when
    /// every other argument is the same: a view embedding one then keeps what it has. The default
    /// answers false; a provider that knows what its configurations read from the state may say yes.
    func configuresAlike(style: String, _ a: (any ConfigurationState)?, _ b: (any ConfigurationState)?) -> Bool
}

extension EmbeddedListContentProvider {
    public func configuresAlike(style: String, _ a: (any ConfigurationState)?, _ b: (any ConfigurationState)?) -> Bool {
        false
    }
}

/// The host services table (`cellhost_host`) handed to plugins: one per plugin, identical but
/// for `log`, which is a libffi closure bound to the plugin's id so messages say who wrote them.
enum HostServices {
    /// The per-plugin table; lives until the process ends (plugins keep the pointer).
    static func makeTable(pluginID: String) -> UnsafePointer<cellhost_host> {
        var table = baseTable
        table.log = logFunction(pluginID: pluginID) ?? anonymousLog
        let pointer = UnsafeMutablePointer<cellhost_host>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return UnsafePointer(pointer)
    }

    private static let anonymousLog: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, text in
        PluginHostEnvironment.log(PluginLogMessage(pluginID: "plugin", level: .init(rawValue: level) ?? .info,
                                                   text: PluginLogMessage.text(of: text)))
    }

    private final class LogBinding: Sendable {
        let pluginID: String
        init(pluginID: String) { self.pluginID = pluginID }
    }

    private static func logFunction(pluginID: String)
        -> (@convention(c) (Int32, UnsafePointer<CChar>?) -> Void)?
    {
        guard let cif = try? FFISignatureCache.shared.cif(for: .log) else { return nil }
        var code: UnsafeMutableRawPointer?
        guard let closure = ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &code)?
            .assumingMemoryBound(to: ffi_closure.self), let code
        else { return nil }
        let binding = Unmanaged.passRetained(LogBinding(pluginID: pluginID)).toOpaque()  // lives forever
        let body: @convention(c) (UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?,
                                  UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutableRawPointer?) -> Void =
        { _, _, arguments, userData in
            guard let arguments, let userData, let levelArgument = arguments[0], let textArgument = arguments[1]
            else { return }
            let binding = Unmanaged<LogBinding>.fromOpaque(userData).takeUnretainedValue()
            let level = levelArgument.load(as: Int32.self)
            let text = textArgument.load(as: UnsafePointer<CChar>?.self)
            PluginHostEnvironment.log(PluginLogMessage(pluginID: binding.pluginID,
                                                       level: .init(rawValue: level) ?? .info,
                                                       text: PluginLogMessage.text(of: text)))
        }
        guard ffi_prep_closure_loc(closure, cif, body, binding, code) == FFI_OK else {
            Unmanaged<LogBinding>.fromOpaque(binding).release()
            ffi_closure_free(closure)
            return nil
        }
        return unsafeBitCast(code, to: (@convention(c) (Int32, UnsafePointer<CChar>?) -> Void).self)
    }

    /// Appends `command` to the canvas of the running draw call, unless the canvas is not that
    /// one (refused and logged) or `problem` found a value the host cannot use (the plugin's fault,
    /// and the command is dropped).
    private static func canvasAppend(_ canvas: OpaquePointer?, _ service: StaticString, problem: @autoclosure () -> String?,
                                     _ command: @autoclosure () -> DisplayCommand) {
        guard let canvas = PluginCallScope.canvas(canvas, for: service) else { return }
        if let problem = problem() {
            PluginCallScope.fault("draw: \(service)", problem)
            return
        }
        canvas.pointee.append(command())
    }

    /// A C string a plugin passed, read no further than `limit` bytes (a longer one is cut).
    private static func boundedString(_ pointer: UnsafePointer<CChar>?, limit: Int = 4096) -> String {
        guard let pointer else { return "" }
        return String(abiBytes: pointer, length: strnlen(pointer, limit))
    }

    /// Every field but `log`, shared by all plugins.
    nonisolated(unsafe) private static let baseTable: cellhost_host = {
        var t = cellhost_host()
        t.header = .host(for: cellhost_host.self)
        t.host_name = InternedCString.shared.pointer(for: "cellhost")
        t.host_version = InternedCString.shared.pointer(for: "\(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)")
        t.get_extension = { _ in nil }

        t.fill = { c, rect, color in
            canvasAppend(c, "fill", problem: PluginValueCheck.rect(rect) ?? PluginValueCheck.color(color),
                         .fill(rect.rect, color.color))
        }
        t.rounded_rect = { c, rect, radius, color in
            canvasAppend(c, "rounded_rect", problem: PluginValueCheck.rect(rect) ?? PluginValueCheck.length(radius, "corner_radius")
                            ?? PluginValueCheck.color(color),
                         .roundedRect(rect.rect, cornerRadius: radius, color: color.color))
        }
        t.stroke = { c, rect, radius, width, color in
            canvasAppend(c, "stroke", problem: PluginValueCheck.rect(rect) ?? PluginValueCheck.length(radius, "corner_radius")
                            ?? PluginValueCheck.length(width, "width") ?? PluginValueCheck.color(color),
                         .stroke(rect.rect, cornerRadius: radius, width: width, color: color.color))
        }
        t.text = { c, run in
            guard let canvas = PluginCallScope.canvas(c, for: "text") else { return }
            guard let run = run?.pointee else { return PluginCallScope.fault("draw: text", "run is NULL") }
            if let problem = PluginValueCheck.textRun(run) { return PluginCallScope.fault("draw: text", problem) }
            let request = run.text
            canvas.pointee.append(.text(TextRun(
                text: String(abiBytes: request.text, length: request.length), font: Font(request.font),
                color: run.color.color, frame: run.frame.rect, alignment: TextAlignment(abi: run.alignment),
                lineBreakMode: LineBreakMode(abi: request.line_break), numberOfLines: Int(max(0, request.number_of_lines)),
                layoutDirection: canvas.pointee.layoutDirection)))
        }
        t.symbol = { c, name, frame, pointSize, weight, color in
            canvasAppend(c, "symbol", problem: PluginValueCheck.rect(frame, "frame")
                            ?? ValueBounds.pointSizeProblem(pointSize).map { "point_size " + $0 } ?? PluginValueCheck.color(color),
                         .symbol(name: boundedString(name), frame: frame.rect, pointSize: pointSize,
                                 weight: FontWeight(abi: weight), color: color.color))
        }
        t.image = { c, path, frame, mode, tint in
            let contentMode = ContentMode.allCases.indices.contains(Int(mode)) ? ContentMode.allCases[Int(mode)] : .scaleToFill
            canvasAppend(c, "image", problem: PluginValueCheck.rect(frame, "frame") ?? tint.flatMap { PluginValueCheck.color($0.pointee, "tint") },
                         .image(path: boundedString(path), frame: frame.rect, contentMode: contentMode, tint: tint?.pointee.color))
        }
        t.push_clip = { c, rect, radius in
            canvasAppend(c, "push_clip", problem: PluginValueCheck.rect(rect) ?? PluginValueCheck.length(radius, "corner_radius"),
                         .pushClip(rect.rect, cornerRadius: radius))
        }
        t.pop_clip = { c in canvasAppend(c, "pop_clip", problem: nil, .popClip) }
        t.push_alpha = { c, alpha in
            canvasAppend(c, "push_alpha", problem: PluginValueCheck.finite(alpha, "alpha"), .pushAlpha(alpha))
        }
        t.pop_alpha = { c in canvasAppend(c, "pop_alpha", problem: nil, .popAlpha) }

        t.measure_text = { context, request, width in
            guard let layout = PluginCallScope.context(context, for: "measure_text") else { return cellhost_text_metrics() }
            guard let r = request?.pointee else {
                PluginCallScope.fault("measure_text", "request is NULL")
                return cellhost_text_metrics()
            }
            if let problem = PluginValueCheck.textRequest(r) ?? PluginValueCheck.finite(width, "width") {
                PluginCallScope.fault("measure_text", problem)
                return cellhost_text_metrics()
            }
            let metrics = layout.pointee.textMeasurer.measure(
                TextLayoutRequest(text: String(abiBytes: r.text, length: r.length), font: Font(r.font),
                                  numberOfLines: Int(max(0, r.number_of_lines)),
                                  lineBreakMode: LineBreakMode(abi: r.line_break),
                                  layoutDirection: layout.pointee.traits.layoutDirection),
                width: width < 0 ? nil : width)
            return cellhost_text_metrics(size: cellhost_size(metrics.size), line_count: Int32(metrics.lineCount),
                                         first_baseline: metrics.firstBaseline, last_baseline: metrics.lastBaseline,
                                         line_height: metrics.lineHeight)
        }

        t.default_font = { traits, style in
            cellhost_font(SystemDefaults.font(for: TextStyle(abi: style) ?? .body, traits: PluginCallScope.traitsForService(traits)))
        }
        t.system_color = { traits, name, out in
            guard let name, let out, let color = TraitKeyedAnswers.shared.systemColor(named: name, traits: traits) else {
                return false
            }
            out.pointee = color
            return true
        }
        t.default_layout_margins = { traits in TraitKeyedAnswers.shared.layoutMargins(traits: traits) }

        t.color_transformer = { name in
            guard let name, let transformer = ColorTransformer.builtIn[String(cString: name)] else { return nil }
            return ColorTransformerBridge.shared.functionPointer(for: transformer)
        }
        t.compose_color_transformers = { first, second in
            let bridge = ColorTransformerBridge.shared
            switch (bridge.transformer(for: first), bridge.transformer(for: second)) {
            case (let a?, let b?): return bridge.functionPointer(for: a.then(b))
            case (let a?, nil): return bridge.functionPointer(for: a)
            case (nil, let b?): return bridge.functionPointer(for: b)
            case (nil, nil): return nil
            }
        }

        t.list_view_create = { style in
            guard let style, PluginHostEnvironment.listContentProvider != nil else { return nil }
            let view = EmbeddedListView(style: String(cString: style))
            guard view.styleIsKnown else { return nil }
            return OpaquePointer(Unmanaged.passRetained(view).toOpaque())
        }
        t.list_view_set_content = { view, content, state in
            guard let content else { return }
            EmbeddedListView.with(view) { $0.setContent(content.pointee, state: state) }
        }
        t.list_view_size_that_fits = { view, target, context in
            guard let layout = PluginCallScope.context(context, for: "list_view_size_that_fits") else { return cellhost_size() }
            // A negative target (a width less padding) is a request for no room, as the host reads it.
            if let problem = PluginValueCheck.length(target.width, "target width") ?? PluginValueCheck.length(target.height, "target height") {
                PluginCallScope.fault("list_view_size_that_fits", problem)
                return cellhost_size()
            }
            var size = cellhost_size()
            EmbeddedListView.with(view) { size = cellhost_size($0.sizeThatFits(target.size, context: layout)) }
            return size
        }
        t.list_view_draw = { view, bounds, context, canvas in
            guard let layout = PluginCallScope.context(context, for: "list_view_draw"),
                  let canvas = PluginCallScope.canvas(canvas, for: "list_view_draw") else { return }
            if let problem = PluginValueCheck.rect(bounds, "bounds") { return PluginCallScope.fault("list_view_draw", problem) }
            EmbeddedListView.with(view) {
                $0.draw(size: bounds.rect.size, context: layout, onto: canvas, at: Point(x: bounds.x, y: bounds.y))
            }
        }
        t.list_view_destroy = { view in
            guard let view else { return }
            Unmanaged<EmbeddedListView>.fromOpaque(UnsafeRawPointer(view)).release()
        }
        return t
    }()
}

extension TextAlignment {
    init(abi value: Int32) {
        self = TextAlignment.allCases.indices.contains(Int(value)) ? TextAlignment.allCases[Int(value)] : .natural
    }
}

extension LineBreakMode {
    init(abi value: Int32) {
        self = LineBreakMode.allCases.indices.contains(Int(value)) ? LineBreakMode.allCases[Int(value)] : .byTruncatingTail
    }
}
