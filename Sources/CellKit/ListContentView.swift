/// The content view of `ListContentConfiguration` (UIKit's `UIListContentView`): lays the
/// configuration out (`ListContentLayout`) and records it. Usable anywhere, including inside a
/// custom content view next to other content. It draws from the configuration it was created
/// with: there is no "empty until set twice" state.
public final class ListContentView: ContentViewFastPaths {
    public private(set) var listConfiguration: ListContentConfiguration
    /// `listConfiguration` as the existential `configuration` hands out, boxed once per applied
    /// configuration: cells read, type-check and compare it in every update pass.
    private var boxedConfiguration: any ContentConfiguration

    /// The last layout, reused while configuration, width and context stay the same
    /// (self-sizing then drawing at the same width measures text once).
    private var cachedLayout: (width: Double, traits: TraitCollection, margins: DirectionalEdgeInsets,
                               layout: ListContentLayout)?
    /// The last recording and what it was recorded for: a cell redrawn for a new background
    /// (a highlight) records the same content again, so it is appended from here instead.
    private var cachedRecording: (bounds: Rect, traits: TraitCollection, tintColor: Color, margins: DirectionalEdgeInsets,
                                  recording: DisplayList)?

    public init(configuration: ListContentConfiguration) {
        listConfiguration = configuration
        boxedConfiguration = configuration
    }

    /// Setting applies at once. A configuration of another type is not applied: `supports(_:)`
    /// answers false for it, and cells replace the view instead.
    public var configuration: any ContentConfiguration {
        get { boxedConfiguration }
        set {
            guard let list = newValue as? ListContentConfiguration else { return }
            apply(list)
        }
    }

    public func apply(_ configuration: ListContentConfiguration) {
        if configuration != listConfiguration {
            listConfiguration = configuration
            boxedConfiguration = configuration
            cachedLayout = nil
            cachedRecording = nil
        }
    }

    /// The default rule (same configuration type and type identifier), without boxing this
    /// view's configuration to ask for its type. The existential's dynamic type is compared
    /// directly: a struct has no subtypes, and a cast would run the runtime's general
    /// `swift_dynamicCast` on every update pass.
    public func supports(_ configuration: any ContentConfiguration) -> Bool {
        type(of: configuration) == ListContentConfiguration.self
    }

    public func layout(width: Double, context: LayoutContext) -> ListContentLayout {
        if cachesLayout(width: width, context: context) { return cachedLayout!.layout }
        let layout = ListContentLayout(configuration: listConfiguration, width: width, context: context)
        cachedLayout = (width, context.traits, context.superviewLayoutMargins, layout)
        return layout
    }

    /// Whether `cachedLayout` is the layout for `width` in `context`; checked where it is stored,
    /// so a caller that reads one figure of it copies nothing else.
    private func cachesLayout(width: Double, context: LayoutContext) -> Bool {
        cachedLayout?.width == width && cachedLayout?.traits == context.traits
            && cachedLayout?.margins == context.superviewLayoutMargins
    }

    public func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size {
        if cachesLayout(width: targetSize.width, context: context) { return cachedLayout!.layout.size }
        return layout(width: targetSize.width, context: context).size
    }

    /// Read every time a cell is drawn (its separator starts where the text does).
    public func separatorLeadingInset(width: Double, context: LayoutContext) -> Double? {
        if cachesLayout(width: width, context: context) { return cachedLayout!.layout.textLeadingInset }
        return layout(width: width, context: context).textLeadingInset
    }

    /// It keeps its last recording, with what it was recorded for.
    public var keepsLastRecording: Bool { true }

    /// The kept recording is the one for these inputs (the configuration is the same while it is
    /// kept). Compared where it is stored (an `if let` would copy the whole entry).
    public func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool {
        cachedRecording?.bounds == bounds && cachedRecording?.traits == context.traits
            && cachedRecording?.tintColor == context.tintColor && cachedRecording?.margins == context.superviewLayoutMargins
    }

    /// Content laid out for `bounds.width`; in bounds taller than the content needs, the content
    /// is centred vertically (as UIKit's list content view in a row with a minimum height).
    public func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        if drawsAsLastRecorded(in: bounds, context: context) {
            list.append(cachedRecording!.recording)
            return
        }
        let layout = layout(width: bounds.width, context: context)
        let slack = max(0, bounds.height - layout.size.height)
        var recording = DisplayList()
        Self.record(listConfiguration, layout: layout,
                    origin: Point(x: bounds.minX, y: bounds.minY + (slack / 2).rounded()),
                    context: context, into: &recording)
        cachedRecording = (bounds, context.traits, context.tintColor, context.superviewLayoutMargins, recording)
        list.append(recording)
    }

    /// Records image and texts with colours resolved for the traits, inside `pushAlpha` when the
    /// configuration is translucent; a fully transparent configuration records nothing.
    static func record(_ c: ListContentConfiguration, layout: ListContentLayout, origin: Point,
                       context: LayoutContext, into list: inout DisplayList) {
        guard c.alpha > 0 else { return }
        let traits = context.traits
        let translucent = c.alpha < 1
        if translucent { list.append(.pushAlpha(c.alpha)) }
        let dx = origin.x, dy = origin.y

        if let image = c.image, let frame = layout.imageFrame?.offsetBy(dx: dx, dy: dy) {
            let tint = c.imageProperties.resolvedTintColor(for: context.tintColor).resolved(with: traits)
            let radius = min(c.imageProperties.cornerRadius, min(frame.width, frame.height) / 2)
            if radius > 0 { list.append(.pushClip(frame, cornerRadius: radius)) }
            switch image.source {
            case .symbol(let name):
                let weight = c.imageProperties.preferredSymbolConfiguration?.weight ?? layout.textFont.weight
                list.append(.symbol(name: name, frame: frame, pointSize: layout.symbolPointSize, weight: weight, color: tint))
            case .file(let path):
                list.append(.image(path: path, frame: frame, contentMode: .scaleAspectFit,
                                   tint: image.isTemplate ? tint : nil))
            }
            if radius > 0 { list.append(.popClip) }
        }
        if let frame = layout.textFrame {
            appendText(layout.styledText, c.attributedText, c.displayedText, font: layout.textFont, properties: c.textProperties,
                       frame: frame.offsetBy(dx: dx, dy: dy), context: context, into: &list)
        }
        if let frame = layout.secondaryTextFrame {
            appendText(layout.secondaryStyledText, c.secondaryAttributedText, c.displayedSecondaryText, font: layout.secondaryTextFont,
                       properties: c.secondaryTextProperties, frame: frame.offsetBy(dx: dx, dy: dy), context: context,
                       into: &list)
        }
        if translucent { list.append(.popAlpha) }
    }

    /// Records one text: the pieces of several attributed runs each as their own text run, else one run.
    private static func appendText(_ styled: StyledText?, _ attributed: AttributedText?, _ displayed: String?, font: Font,
                                   properties p: TextProperties, frame: Rect, context: LayoutContext,
                                   into list: inout DisplayList) {
        let traits = context.traits
        if let styled {
            for textRun in styled.textRuns(in: frame, alignment: p.alignment, direction: traits.layoutDirection,
                                         color: { own in resolvedColor(own, properties: p, traits: traits) }) {
                list.append(.text(textRun))
            }
        } else if let text = displayed {
            list.append(.text(run(text, font: font, override: attributed?.color, properties: p, frame: frame, traits: traits)))
        }
    }

    private static func run(_ text: String, font: Font, override: Color?, properties p: TextProperties, frame: Rect,
                            traits: TraitCollection) -> TextRun {
        TextRun(text: text, font: font, color: resolvedColor(override, properties: p, traits: traits), frame: frame, alignment: p.alignment,
                       lineBreakMode: p.lineBreakMode, numberOfLines: p.numberOfLines,
                       layoutDirection: traits.layoutDirection)
    }

    /// A text colour as drawn: the attributed override or the properties' colour, through the
    /// properties' transformer, resolved for the traits.
    private static func resolvedColor(_ override: Color?, properties p: TextProperties, traits: TraitCollection) -> Color {
        let base = override ?? p.color
        return (p.colorTransformer.map { $0(base) } ?? base).resolved(with: traits)
    }
}
