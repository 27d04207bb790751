import CCellHostABI
import CellKit

/// What a `cellhost_canvas *` points to while a plugin view draws: the display list being
/// recorded and the open clip/alpha groups, so the host can close groups a plugin left open
/// and drop pops that match nothing — a sloppy plugin cannot unbalance the host's recording.
struct HostCanvas {
    let list: UnsafeMutablePointer<DisplayList>
    let layoutDirection: LayoutDirection
    /// Open groups as a bit stack, innermost lowest: 1 = clip, 0 = alpha.
    private var groups: UInt64 = 0
    private var depth = 0

    init(list: UnsafeMutablePointer<DisplayList>, layoutDirection: LayoutDirection) {
        self.list = list
        self.layoutDirection = layoutDirection
    }

    mutating func append(_ command: DisplayCommand) {
        switch command {
        case .pushClip, .pushAlpha:
            guard depth < 64 else { return }
            groups = groups << 1 | (command.isClip ? 1 : 0)
            depth += 1
        case .popClip, .popAlpha:
            guard depth > 0, (groups & 1 == 1) == command.isClip else { return }
            groups >>= 1
            depth -= 1
        default: break
        }
        list.pointee.append(command)
    }

    /// A host view's recording (an embedded list view's), moved to where it sits. Its groups open
    /// and close inside it, so when they fit under the open-group limit it goes in whole, in one
    /// copy; otherwise command by command, as the plugin's own calls would.
    mutating func append(contentsOf recording: DisplayList, offsetBy offset: Point) {
        append(contentsOf: recording, groups: RecordingGroups(recording), offsetBy: offset)
    }

    /// `append(contentsOf:offsetBy:)` with the recording's groups already known.
    mutating func append(contentsOf recording: DisplayList, groups: RecordingGroups, offsetBy offset: Point) {
        guard groups.isBalanced, depth + groups.depth <= 64 else {
            for command in recording.commands { append(command.offsetBy(dx: offset.x, dy: offset.y)) }
            return
        }
        list.pointee.append(recording, offsetBy: offset)
    }

    /// Closes every group the plugin left open.
    mutating func closeOpenGroups() {
        while depth > 0 { append(groups & 1 == 1 ? .popClip : .popAlpha) }
    }

    /// Runs `body` with a canvas recording into `list`, closing open groups afterwards.
    static func recording(into list: inout DisplayList, direction: LayoutDirection,
                          _ body: (OpaquePointer) -> Void) {
        withUnsafeMutablePointer(to: &list) { listPointer in
            var canvas = HostCanvas(list: listPointer, layoutDirection: direction)
            withUnsafeMutablePointer(to: &canvas) { body(OpaquePointer($0)) }
            canvas.closeOpenGroups()
        }
    }

    /// The canvas behind a pointer a plugin passed back (nil if the plugin passed NULL).
    static func from(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<HostCanvas>? {
        pointer.map { UnsafeMutablePointer<HostCanvas>($0) }
    }
}

/// How a recording's clip and alpha groups nest: whether every group it opens it also closes,
/// innermost first, and how deep they go. A canvas takes the recording whole when it is balanced
/// and its depth fits over the canvas's open groups, which is what appending its commands one by
/// one would accept without dropping any.
struct RecordingGroups {
    let isBalanced: Bool
    /// The deepest nesting inside the recording (past 64 it counts as 65: no canvas takes it whole).
    let depth: Int

    init(_ recording: DisplayList) {
        var open: UInt64 = 0, count = 0, deepest = 0, balanced = true
        for command in recording.commands where balanced && deepest <= 64 {
            switch command {
            case .pushClip, .pushAlpha:
                open = open << 1 | (command.isClip ? 1 : 0)
                count += 1
                deepest = max(deepest, count)
            case .popClip, .popAlpha:
                balanced = count > 0 && (open & 1 == 1) == command.isClip
                open >>= 1
                count -= 1
            default: break
            }
        }
        isBalanced = balanced && count == 0
        depth = deepest
    }
}

private extension DisplayCommand {
    var isClip: Bool {
        switch self {
        case .pushClip, .popClip: true
        default: false
        }
    }
}

/// What `cellhost_context.host_data` points to during size_that_fits and draw: the caller's
/// `LayoutContext`, where it is. Host services read it in place; a copy retained and released
/// its measurer and colours on every call into and back out of a plugin.
enum HostCallContext {
    /// Runs `body` with a `cellhost_context` valid during the call.
    static func with<R>(_ layout: borrowing LayoutContext, _ body: (UnsafePointer<cellhost_context>) -> R) -> R {
        withUnsafePointer(to: layout) { layoutPointer in
            var context = cellhost_context(header: .host(for: cellhost_context.self),
                                           traits: cellhost_traits(layoutPointer.pointee.traits),
                                           host_data: UnsafeRawPointer(layoutPointer),
                                           extra_traits: cellhost_extra_traits(layoutPointer.pointee.traits))
            return withUnsafePointer(to: &context, body)
        }
    }

    /// The layout context behind a `cellhost_context` the host made (nil for NULL), valid during
    /// the call that received it.
    static func from(_ context: UnsafePointer<cellhost_context>?) -> UnsafePointer<LayoutContext>? {
        context?.pointee.host_data?.assumingMemoryBound(to: LayoutContext.self)
    }
}
