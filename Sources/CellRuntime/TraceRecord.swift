import CellIO
import CellKit

/// The trace model: what one run did, event by event. The engine produces these records, the
/// worker streams them to the supervisor as JSON lines (`cellhost.trace/1`, the same lines
/// `trace.jsonl` holds), and every sink — table, JSONL, Chrome trace — reads the same values.
public enum TraceRecord: Sendable, Equatable {
    case header(TraceHeader)
    case event(TraceEvent)
    /// A plugin's log message; it comes before the record of the event it was logged in.
    case log(TraceLog)
    case end(TraceEnd)

    public static let schema = "cellhost.trace/1"
}

public struct TraceHeader: Sendable, Equatable {
    /// The stream's name ("events.jsonl", "<stdin>", "<embedded>").
    public var source: String
    public var appearance: String
    public var viewport: Size
    public var scale: Double
    public var traits: [String]
    public var itemCount: Int
    /// Plugins loaded, as "path (type ids)".
    public var plugins: [String]

    public init(source: String, appearance: String, viewport: Size, scale: Double, traits: [String], itemCount: Int,
                plugins: [String]) {
        self.source = source
        self.appearance = appearance
        self.viewport = viewport
        self.scale = scale
        self.traits = traits
        self.itemCount = itemCount
        self.plugins = plugins
    }
}

/// Durations of the engine's phases for one event, in microseconds.
public struct PhaseTimings: Sendable, Equatable {
    public var update: Double = 0
    public var layout: Double = 0
    public var draw: Double = 0
    public var raster: Double = 0
    public var composite: Double = 0
    public var encode: Double = 0

    public init(update: Double = 0, layout: Double = 0, draw: Double = 0, raster: Double = 0, composite: Double = 0,
                encode: Double = 0) {
        self.update = update
        self.layout = layout
        self.draw = draw
        self.raster = raster
        self.composite = composite
        self.encode = encode
    }

    public static let phaseNames = ["update", "layout", "draw", "raster", "composite", "encode"]

    public var phases: [(String, Double)] {
        [("update", update), ("layout", layout), ("draw", draw), ("raster", raster), ("composite", composite), ("encode", encode)]
    }

    public var total: Double { update + layout + draw + raster + composite + encode }

    public static func += (a: inout PhaseTimings, b: PhaseTimings) {
        a.update += b.update; a.layout += b.layout; a.draw += b.draw
        a.raster += b.raster; a.composite += b.composite; a.encode += b.encode
    }
}

public struct TraceEvent: Sendable, Equatable {
    public var number: Int
    public var line: Int
    /// What the event did, in words ("apple: selected"), for tables and slice names; spelled out
    /// when read.
    public var summaryText: EventSummary
    public var summary: String {
        get { summaryText.description }
        set { summaryText = EventSummary(newValue) }
    }
    public var note: String?
    /// Microseconds since the run started, when the event began.
    public var start: Double
    public var updates: [CellUpdateTrace]
    public var frames: [FrameTrace]
    /// A problem the event ran into that did not stop the run (a property a plugin refused).
    public var problems: [String]
    public var timings: PhaseTimings
    /// Outline items the event expanded or collapsed (or deleted with their subtrees), and the
    /// rows that inserted or removed; empty for every other event.
    public var outline: [OutlineTrace] = []

    public var damagedPixels: Int { frames.reduce(0) { $0 + $1.damagedPixels } }
}

extension TraceEvent {
    public init(number: Int, line: Int, summary: String, note: String? = nil, start: Double = 0,
                updates: [CellUpdateTrace] = [], frames: [FrameTrace] = [], timings: PhaseTimings = PhaseTimings(),
                problems: [String] = []) {
        self.init(number: number, line: line, summaryText: EventSummary(summary), note: note, start: start,
                  updates: updates, frames: frames, timings: timings, problems: problems)
    }

    /// Delegates to the memberwise initialiser (`timings` last), as `CellUpdateTrace`'s does.
    public init(number: Int, line: Int, summaryText: EventSummary, note: String? = nil, start: Double = 0,
                updates: [CellUpdateTrace] = [], frames: [FrameTrace] = [], timings: PhaseTimings = PhaseTimings(),
                problems: [String] = []) {
        self.init(number: number, line: line, summaryText: summaryText, note: note, start: start, updates: updates,
                  frames: frames, problems: problems, timings: timings)
    }
}

/// A message a plugin logged (`log` in the host services), or the host's one report that a
/// plugin logged more in an event than a run shows (`notShown` set).
public struct TraceLog: Sendable, Equatable {
    public enum Level: String, Sendable, Equatable, CaseIterable { case debug, info, warning, error }

    /// The plugin's reverse-DNS id.
    public var plugin: String
    public var level: Level
    public var message: String
    /// The event running when it was logged; nil before the first display (loading plugins,
    /// building the list).
    public var event: Int?
    /// Set on the host's report of a flood: how many messages of `plugin` in `event` were left out.
    public var notShown: Int?

    public init(plugin: String, level: Level, message: String, event: Int?, notShown: Int? = nil) {
        self.plugin = plugin
        self.level = level
        self.message = message
        self.event = event
        self.notShown = notShown
    }
}

/// Why a property has its value after an update pass (CellKit's reasons, in trace words).
public enum PropertyChangeReason: String, Sendable, Equatable, CaseIterable {
    /// `updated(for:)` restyled it for the new state.
    case restyled
    /// Customised earlier, so `updated(for:)` left it alone although the state changed.
    case locked
    /// Customised to a dynamic colour (a system colour by name) and set again, resolved for the
    /// new appearance: still locked. The cause names the appearance ("dark", "light").
    case reResolved
    /// Set by the event (`set`) or a plugin action.
    case setByEvent
    /// Set by `updateConfiguration(using:)` / `configurationUpdateHandler`.
    case setByHook
}

public struct PropertyChangeTrace: Sendable, Equatable {
    /// "content" or "background".
    public var configuration: String
    public var property: String
    public var old: String?
    public var new: String
    public var reason: PropertyChangeReason
    /// The state input behind a restyle ("selected", "dark", "AX3").
    public var cause: String?
    /// A nil value of this property shows the tint colour (a background's fill, an image's tint).
    public var nilIsTint: Bool

    public init(configuration: String, property: String, old: String?, new: String, reason: PropertyChangeReason,
                cause: String? = nil, nilIsTint: Bool = false) {
        self.configuration = configuration
        self.property = property
        self.old = old
        self.new = new
        self.reason = reason
        self.cause = cause
        self.nilIsTint = nilIsTint
    }
}

public enum ViewOutcome: String, Sendable, Equatable {
    /// The cell had no content view: first display, or scrolled in with an empty reuse pool.
    case created
    /// `supports(new)` was true: the view took the new configuration.
    case reused
    /// `supports(new)` was false: a new view from `makeContentView()` replaced the old one.
    case replaced
    /// The configuration did not change; the view kept it.
    case unchanged
}

public struct CellUpdateTrace: Sendable, Equatable {
    /// Item id, or "header:<section>" / "footer:<section>".
    public var cell: String
    /// The configuration type shown.
    public var type: String
    /// What made the cell update ("selected", "traits", "setNeedsUpdateConfiguration", "first display").
    public var cause: String
    /// Flags on before and after, as words ("highlighted", "drop=targeted", "isFavorite=true").
    public var stateBefore: [String]
    public var stateAfter: [String]
    public var view: ViewOutcome
    public var changes: [PropertyChangeTrace]
    /// The old view's `supports(new)` answer; nil when there was no old view.
    public var supports: Bool?
    public var size: Size
    /// Where the cell sits in the list's content (points).
    public var frame: Rect
    /// What the cell's redraw damaged, in viewport points; nil = nothing.
    public var damage: Rect?
    public var micros: Double
    /// Why the cell looks different though no property changed: traits that draw the same values
    /// differently ("colours re-resolved for dark"), or a content view styling itself from the
    /// state; nil when its drawing did not change.
    public var repaint: String?
    /// The accessories shown after the pass and why they changed ("shown: delete, reorder;
    /// hidden: disclosureIndicator (editing changed)"); nil when they did not change.
    public var accessories: String? = nil
    /// A swipe-actions change ("trailing actions open: Delete", "closed (tap)"); nil = none.
    public var swipe: String? = nil
    /// The form of the stream update handler the pass ran; nil when the cell has none.
    public var handler: UpdateHandlerForm? = nil
    /// The row's separator configuration where the list or its item sets one, in its first
    /// update record; nil otherwise.
    public var separators: String? = nil
    /// The list content's image size and reserved size in points, in its first update record;
    /// nil otherwise.
    public var image: String? = nil
}

extension CellUpdateTrace {
    /// Delegates to the memberwise initialiser (`view` before `changes`, so the two differ): an
    /// initialiser that assigns field by field builds the record in a stack slot that the
    /// optimiser copies whole and then destroys, a retain and a release of every string and
    /// array in it on each update pass; the memberwise initialiser builds it in place.
    public init(cell: String, type: String, cause: String, stateBefore: [String], stateAfter: [String],
                changes: [PropertyChangeTrace], view: ViewOutcome, supports: Bool?, size: Size, frame: Rect,
                damage: Rect?, micros: Double, repaint: String? = nil, accessories: String? = nil, swipe: String? = nil,
                handler: UpdateHandlerForm? = nil) {
        self.init(cell: cell, type: type, cause: cause, stateBefore: stateBefore, stateAfter: stateAfter, view: view,
                  changes: changes, supports: supports, size: size, frame: frame, damage: damage, micros: micros, repaint: repaint,
                  accessories: accessories, swipe: swipe, handler: handler)
    }
}

public struct FrameTrace: Sendable, Equatable {
    /// 1-based frame number across the run.
    public var index: Int
    /// Damaged rectangles in pixels.
    public var damage: [Rect]
    public var damagedPixels: Int
    /// The PNG written for it, relative to the frames directory; nil when frames are not written.
    public var file: String?
    /// Animation progress 0…1 for intermediate frames; nil for a frame that shows the settled state.
    public var progress: Double?
    /// The index of the earlier frame whose file (`file`) this frame repeats pixel for pixel:
    /// an identical consecutive frame is written once. Nil for a frame written to its own file.
    public var sameAs: Int? = nil
}

extension FrameTrace {
    /// Delegates to the memberwise initialiser (`file` after the damage), as `CellUpdateTrace`'s does.
    public init(index: Int, file: String?, damage: [Rect], damagedPixels: Int, progress: Double? = nil) {
        self.init(index: index, damage: damage, damagedPixels: damagedPixels, file: file, progress: progress)
    }
}

/// The last record: how the run ended. A supervisor writes it also when the worker died.
public struct TraceEnd: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        case ok
        case badInput
        case pluginLoadFailed
        case pluginCrashed
        case pluginHung
        /// A plugin handed the host a value it cannot use (a non-finite size, an absurd canvas argument).
        case pluginFault
        case internalError
        /// SIGINT, SIGTERM or SIGHUP asked cellhost to stop; the trace holds every event completed before.
        case interrupted
    }

    public var outcome: Outcome
    public var events: Int
    public var frames: Int
    /// The event the run stopped at, when it did not finish.
    public var failedEvent: Int?
    public var message: String?
    public var timings: PhaseTimings

    public init(outcome: Outcome, events: Int, frames: Int, failedEvent: Int? = nil, message: String? = nil,
                timings: PhaseTimings = PhaseTimings()) {
        self.outcome = outcome
        self.events = events
        self.frames = frames
        self.failedEvent = failedEvent
        self.message = message
        self.timings = timings
    }
}
