/// The layout context the host passed to size_that_fits or draw (valid only during that call):
/// traits and text measurement with the host's fonts.
public struct DrawingContext {
    public let pointer: UnsafePointer<cellhost_context>

    init(_ pointer: UnsafePointer<cellhost_context>) { self.pointer = pointer }

    public var traits: cellhost_traits { pointer.pointee.traits }
    /// The elevated level, Bold Text and the idiom (ABI 1.2); zero (base, regular, phone) when
    /// the context ends before them.
    public var extraTraits: cellhost_extra_traits {
        extraTraitsField(of: pointer, at: MemoryLayout<cellhost_context>.offset(of: \.extra_traits)!)
    }

    /// Measures `text` in lines no wider than `width` (nil = one unconstrained line), at most
    /// `lines` of them (0 = no limit). One line by default, as `text(_:…)` draws, so what is
    /// measured is what is drawn unless both are asked for more.
    public func measure(_ text: String, font: cellhost_font, width: Double?, lines: Int32 = 1) -> cellhost_text_metrics {
        guard let measure = Host.table?.pointee.measure_text else { return cellhost_text_metrics() }
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { bytes in
                var request = TextRequest.make(bytes, font: font, lines: lines)
                return measure(pointer, &request, width ?? -1)
            }
        }
    }
}

enum TextRequest {
    static func make(_ bytes: UnsafeBufferPointer<CChar>, font: cellhost_font, lines: Int32) -> cellhost_text_request {
        cellhost_text_request(header: DescriptorBuilder.header(cellhost_text_request.self), text: bytes.baseAddress,
                              length: bytes.count, font: font, number_of_lines: lines, line_break: 4)
    }
}

/// The canvas a view draws into (valid only during draw). Each call records one drawing command.
public struct Canvas {
    public let pointer: OpaquePointer?

    init(_ pointer: OpaquePointer?) { self.pointer = pointer }

    /// The services table itself, read in place (its value is some forty function pointers).
    private var host: UnsafePointer<cellhost_host>? { Host.table }

    public func fill(_ rect: cellhost_rect, _ color: cellhost_color) { host?.pointee.fill(pointer, rect, color) }

    public func roundedRect(_ rect: cellhost_rect, cornerRadius: Double, _ color: cellhost_color) {
        host?.pointee.rounded_rect(pointer, rect, cornerRadius, color)
    }

    public func stroke(_ rect: cellhost_rect, cornerRadius: Double, width: Double, _ color: cellhost_color) {
        host?.pointee.stroke(pointer, rect, cornerRadius, width, color)
    }

    /// Text laid out in `frame` (alignment: 0 natural, 1 left, 2 center, 3 right), at most
    /// `lines` lines (0 = no limit).
    public func text(_ text: String, font: cellhost_font, color: cellhost_color, frame: cellhost_rect,
                     alignment: Int32 = 0, lines: Int32 = 1) {
        guard let draw = host?.pointee.text else { return }
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { bytes in
                var run = cellhost_text_run(header: DescriptorBuilder.header(cellhost_text_run.self),
                                            text: TextRequest.make(bytes, font: font, lines: lines),
                                            color: color, frame: frame, alignment: alignment)
                draw(pointer, &run)
            }
        }
    }

    public func symbol(_ name: String, frame: cellhost_rect, pointSize: Double, weight: cellhost_font_weight = CELLHOST_FONT_REGULAR,
                       _ color: cellhost_color) {
        guard let symbol = host?.pointee.symbol else { return }
        name.withCString { symbol(pointer, $0, frame, pointSize, weight, color) }
    }

    public func pushClip(_ rect: cellhost_rect, cornerRadius: Double = 0) { host?.pointee.push_clip(pointer, rect, cornerRadius) }
    public func popClip() { host?.pointee.pop_clip(pointer) }
    public func pushAlpha(_ alpha: Double) { host?.pointee.push_alpha(pointer, alpha) }
    public func popAlpha() { host?.pointee.pop_alpha(pointer) }
}

/// A host `ListContentView` embedded in a plugin view (standard list content next to the
/// plugin's own drawing). Destroyed with this object.
public final class HostListView {
    private let handle: OpaquePointer

    /// nil when the host has no list content or the style is unknown ("cell", "subtitleCell", …).
    public init?(style: String) {
        guard let create = Host.table?.pointee.list_view_create, let handle = style.withCString({ create($0) }) else {
            return nil
        }
        self.handle = handle
    }

    deinit { Host.table?.pointee.list_view_destroy(handle) }

    /// Shows this content, styled for `state` (a `PluginState.snapshot`, or nil for the default state).
    public func setContent(text: String?, secondaryText: String? = nil, symbol: String? = nil, state: cellhost_state?) {
        guard let set = Host.table?.pointee.list_view_set_content else { return }
        withOptionalCString(text) { t in
            withOptionalCString(secondaryText) { s in
                withOptionalCString(symbol) { i in
                    var content = cellhost_list_content(header: DescriptorBuilder.header(cellhost_list_content.self),
                                                        text: t, secondary_text: s, symbol_name: i)
                    if var state { set(handle, &content, &state) } else { set(handle, &content, nil) }
                }
            }
        }
    }

    public func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size {
        Host.table?.pointee.list_view_size_that_fits(handle, target, context.pointer) ?? cellhost_size()
    }

    public func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {
        Host.table?.pointee.list_view_draw(handle, bounds, context.pointer, canvas.pointer)
    }
}

private func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
