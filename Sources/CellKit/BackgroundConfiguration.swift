/// How a cell's or header's background looks (UIKit's `UIBackgroundConfiguration`): a value with
/// per-style, per-state defaults that `updated(for:)` applies to every property the user has not
/// customised, and a `draw` that records the background for the compositor.
public struct BackgroundConfiguration: Hashable, Sendable, PropertyInspectable {
    /// The factory a configuration came from; it picks the defaults `updated(for:)` applies.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        case clear, listPlainCell, listGroupedCell, listSidebarCell, listAccompaniedSidebarCell
        case listPlainHeaderFooter, listGroupedHeaderFooter, listSidebarHeader
        /// iOS 18: styles that follow `traitCollection.listEnvironment`.
        case listCell, listHeader, listFooter
    }

    public private(set) var style: Style

    /// nil = the tint colour; `.clear` = no fill.
    @Customizable public var backgroundColor: Color? = .clear
    @Customizable public var backgroundColorTransformer: ColorTransformer? = nil
    /// nil = the tint colour. Drawn only when `strokeWidth` > 0.
    @Customizable public var strokeColor: Color? = nil
    @Customizable public var strokeColorTransformer: ColorTransformer? = nil
    @Customizable public var strokeWidth: Double = 0
    /// How far the stroke sits outside the background's edge.
    @Customizable public var strokeOutset: Double = 0
    /// Shrinks to half the short side when the background is too small for it.
    @Customizable public var cornerRadius: Double = 0
    /// Positive insets shrink the background, negative ones grow it past the view's bounds.
    @Customizable public var backgroundInsets: DirectionalEdgeInsets = .zero
    /// Edges on which the view's layout margins are added to `backgroundInsets`.
    @Customizable public var edgesAddingLayoutMarginsToBackgroundInsets: DirectionalRectEdge = []
    /// A blur of what lies behind the background (UIKit's `UIVisualEffect`, reduced to a blur).
    @Customizable public var visualEffect: VisualEffect? = nil
    @Customizable public var image: Image? = nil
    @Customizable public var imageContentMode: ContentMode = .scaleToFill
    /// Drawing supplied by code in place of UIKit's `customView`: the model has no view tree,
    /// so a custom background is a function that records into the display list.
    @Customizable public var customView: CustomBackgroundView? = nil
    public var shadowProperties = ShadowProperties()

    public init(style: Style = .clear) {
        self.style = style
    }

    public var typeIdentifier: String { "com.cellhost.background" }

    // MARK: Factories

    /// A background that draws nothing.
    public static func clear() -> Self { .styled(.clear) }
    public static func listPlainCell() -> Self { .styled(.listPlainCell) }
    public static func listGroupedCell() -> Self { .styled(.listGroupedCell) }
    public static func listSidebarCell() -> Self { .styled(.listSidebarCell) }
    public static func listAccompaniedSidebarCell() -> Self { .styled(.listAccompaniedSidebarCell) }
    public static func listPlainHeaderFooter() -> Self { .styled(.listPlainHeaderFooter) }
    public static func listGroupedHeaderFooter() -> Self { .styled(.listGroupedHeaderFooter) }
    public static func listSidebarHeader() -> Self { .styled(.listSidebarHeader) }
    /// Follows the list environment of the state it is updated for (iOS 18).
    public static func listCell() -> Self { .styled(.listCell) }
    public static func listHeader() -> Self { .styled(.listHeader) }
    public static func listFooter() -> Self { .styled(.listFooter) }


    // MARK: State

    /// A copy restyled for `state`; customised properties keep their values.
    public func updated(for state: any ConfigurationState) -> Self {
        var copy = self
        copy.applyDefaults(for: state.cellState)
        return copy
    }

    /// The concrete style for a list environment: the iOS 18 styles resolve through it, outside a
    /// list (`none`) they look like a plain list's.
    public static func effectiveStyle(_ style: Style, in environment: ListEnvironment) -> Style {
        switch style {
        case .listCell:
            switch environment {
            case .none, .plain: .listPlainCell
            case .grouped, .insetGrouped: .listGroupedCell
            case .sidebar, .sidebarPlain: .listSidebarCell
            }
        case .listHeader, .listFooter:
            switch environment {
            case .none, .plain: .listPlainHeaderFooter
            case .grouped, .insetGrouped: .listGroupedHeaderFooter
            case .sidebar, .sidebarPlain: style == .listHeader ? .listSidebarHeader : .listGroupedHeaderFooter
            }
        default: style
        }
    }

    /// The defaults of every styled property for `state`. Selection in sidebars fills with the
    /// tint (`backgroundColor` nil) as UIKit does; pressing a selection darkens it through the
    /// `pressed` transformer, disabling it greys it through `grayscale`, a drop target shows a
    /// faded tint; plain and grouped lists highlight and select with systemGray4 (dynamic, so
    /// light and dark differ); a lifted or dragged cell is opaque, rounded and casts a shadow.
    mutating func applyDefaults(for state: CellConfigurationState) {
        let effective = Self.effectiveStyle(style, in: state.traitCollection.listEnvironment)
        var color: Color? = .clear
        var transformer: ColorTransformer? = nil
        var radius = 0.0
        var insets = DirectionalEdgeInsets.zero
        var effect: VisualEffect? = nil
        var shadow: (color: Color?, opacity: Double, radius: Double, offset: Point) = (nil, 0, 0, .zero)
        let pressedOrChosen = state.isHighlighted || state.isSelected || state.isFocused
        let dragging = state.cellDragState != .none

        switch effective {
        case .clear, .listGroupedHeaderFooter, .listSidebarHeader:
            break
        case .listPlainCell, .listGroupedCell:
            color = effective == .listPlainCell ? .systemBackground : .secondarySystemGroupedBackground
            if pressedOrChosen { color = .systemGray4 }
            if state.cellDropState == .targeted { color = nil; transformer = .faded }
            if dragging {
                radius = 10
                shadow = (.black, state.cellDragState == .lifting ? 0.15 : 0.25, 8, Point(x: 0, y: 2))
            }
        case .listSidebarCell, .listAccompaniedSidebarCell:
            radius = 10
            insets = DirectionalEdgeInsets(top: 0, leading: 10, bottom: 0, trailing: 10)
            let selectedColor: Color? = effective == .listSidebarCell ? nil : .systemGray4
            if state.isSelected || state.isFocused {
                color = selectedColor
                if state.isDisabled { transformer = .grayscale } else if state.isHighlighted { transformer = .pressed }
            } else if state.isHighlighted {
                color = effective == .listSidebarCell ? .systemGray4 : .systemGray5
            }
            if state.cellDropState == .targeted { color = nil; transformer = .faded }
            if dragging {
                color = .secondarySystemGroupedBackground
                shadow = (.black, 0.2, 8, Point(x: 0, y: 2))
            }
        case .listPlainHeaderFooter:
            color = .systemBackground
            if state.isPinned {
                color = Color.systemBackground.withAlphaComponent(0.8)
                effect = .systemMaterial
            }
        case .listCell, .listHeader, .listFooter:
            preconditionFailure("effectiveStyle resolves environment styles")
        }

        // Through the wrappers' storage, in place (`$property` hands out a copy to write back).
        _backgroundColor.restyle(color)
        _backgroundColorTransformer.restyle(transformer)
        _cornerRadius.restyle(radius)
        _backgroundInsets.restyle(insets)
        _visualEffect.restyle(effect)
        shadowProperties.restyle(color: shadow.color, opacity: shadow.opacity, radius: shadow.radius, offset: shadow.offset)
    }

    // MARK: Resolved colours

    /// The fill colour shown: `backgroundColor` (nil = `tintColor`) through the transformer.
    public func resolvedBackgroundColor(for tintColor: Color) -> Color {
        let base = backgroundColor ?? tintColor
        return backgroundColorTransformer.map { $0(base) } ?? base
    }

    /// The stroke colour shown: `strokeColor` (nil = `tintColor`) through the transformer.
    public func resolvedStrokeColor(for tintColor: Color) -> Color {
        let base = strokeColor ?? tintColor
        return strokeColorTransformer.map { $0(base) } ?? base
    }

    // MARK: Geometry and drawing

    /// Where the background sits inside `bounds`: insets (negative = outset) plus the layout
    /// margins on the chosen edges, mirrored for right-to-left layout.
    public func backgroundRect(in bounds: Rect, layoutMargins: DirectionalEdgeInsets = .zero,
                               direction: LayoutDirection = .leftToRight) -> Rect {
        var insets = backgroundInsets
        let edges = edgesAddingLayoutMarginsToBackgroundInsets
        if edges.contains(.top) { insets.top += layoutMargins.top }
        if edges.contains(.leading) { insets.leading += layoutMargins.leading }
        if edges.contains(.bottom) { insets.bottom += layoutMargins.bottom }
        if edges.contains(.trailing) { insets.trailing += layoutMargins.trailing }
        return bounds.inset(by: insets.absolute(for: direction))
    }

    /// The corner radius used for a background of `size`: never more than half the short side.
    public func effectiveCornerRadius(for size: Size) -> Double {
        max(0, min(cornerRadius, min(size.width, size.height) / 2))
    }

    /// `draw` for a configuration a class stores: a mutating call reaches the stored value in
    /// place, where a plain call on the stored property copies the whole configuration first.
    mutating func drawInPlace(in bounds: Rect, traits: TraitCollection, tintColor: Color,
                              layoutMargins: DirectionalEdgeInsets, into list: inout DisplayList) {
        draw(in: bounds, traits: traits, tintColor: tintColor, layoutMargins: layoutMargins, into: &list)
    }

    /// Records the background into `list` in the order it is composed: shadow, blur, fill, image,
    /// custom drawing, stroke. Colours are resolved for `traits`; nothing invisible is recorded.
    public func draw(in bounds: Rect, traits: TraitCollection, tintColor: Color = .tintColor,
                     layoutMargins: DirectionalEdgeInsets = .zero, into list: inout DisplayList) {
        let rect = backgroundRect(in: bounds, layoutMargins: layoutMargins, direction: traits.layoutDirection)
        guard !rect.isEmpty else { return }
        let radius = effectiveCornerRadius(for: rect.size)
        let resolvedTint = tintColor.resolved(with: traits)

        if shadowProperties.isVisible, let shadowColor = shadowProperties.color?.resolved(with: traits) {
            list.append(.shadow(rect, cornerRadius: radius, radius: shadowProperties.radius,
                                offset: shadowProperties.offset,
                                color: shadowColor.withAlphaComponent(shadowColor.alpha * shadowProperties.opacity)))
        }
        if let visualEffect, visualEffect.blurRadius > 0 {
            list.append(.backgroundBlur(rect, radius: visualEffect.blurRadius, cornerRadius: radius))
        }
        let fill = resolvedBackgroundColor(for: resolvedTint).resolved(with: traits)
        if fill.alpha > 0 {
            list.append(radius > 0 ? .roundedRect(rect, cornerRadius: radius, color: fill) : .fill(rect, fill))
        }
        if image != nil || customView != nil {
            list.append(.pushClip(rect, cornerRadius: radius))
            if let image {
                switch image.source {
                case .symbol(let name):
                    list.append(.symbol(name: name, frame: rect, pointSize: min(rect.width, rect.height),
                                        weight: .regular, color: resolvedTint))
                case .file(let path):
                    list.append(.image(path: path, frame: rect, contentMode: imageContentMode,
                                       tint: image.isTemplate ? resolvedTint : nil))
                }
            }
            if let customView {
                list.append(customView.draw(rect.size, traits), offsetBy: rect.origin)
            }
            list.append(.popClip)
        }
        if strokeWidth > 0 {
            let stroke = resolvedStrokeColor(for: resolvedTint).resolved(with: traits)
            if stroke.alpha > 0 {
                let outer = rect.insetBy(dx: -strokeOutset, dy: -strokeOutset)
                list.append(.stroke(outer, cornerRadius: radius > 0 ? radius + strokeOutset : 0, width: strokeWidth,
                                    color: stroke))
            }
        }
    }

    // MARK: Properties by name

    public static let propertyTable = PropertyTable<BackgroundConfiguration>([
        .init("backgroundColor", \._backgroundColor),
        .init("backgroundColorTransformer", \._backgroundColorTransformer),
        .init("strokeColor", \._strokeColor),
        .init("strokeColorTransformer", \._strokeColorTransformer),
        .init("strokeWidth", \._strokeWidth, validate: nonNegative),
        .init("strokeOutset", \._strokeOutset),
        .init("cornerRadius", \._cornerRadius, validate: nonNegative),
        .init("backgroundInsets", \._backgroundInsets),
        .init("edgesAddingLayoutMarginsToBackgroundInsets", \._edgesAddingLayoutMarginsToBackgroundInsets),
        .init("visualEffect", \._visualEffect),
        .init("image", \._image),
        .init("imageContentMode", \._imageContentMode),
        .init("customView", \._customView),
    ] + ShadowProperties.propertyTable.nested(under: "shadowProperties", at: \.shadowProperties))
}

/// A background blur (the part of UIKit's `UIVisualEffect` a background uses).
public struct VisualEffect: Hashable, Sendable, PropertyValueConvertible {
    public var blurRadius: Double
    public init(blurRadius: Double) { self.blurRadius = blurRadius }

    /// The blur of UIKit's system material behind pinned plain headers.
    public static let systemMaterial = VisualEffect(blurRadius: 20)
    /// The largest blur a stream may ask for: a blur spreads damage over about three radii.
    public static let maximumBlurRadius = 1_000.0

    /// Travels as its blur radius.
    public var propertyValue: PropertyValue { .double(blurRadius) }
    public static var propertyKindName: String { "blur radius (double)" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> VisualEffect? {
        guard let radius = try Double.converting(value, property: property) else { return nil }
        guard radius >= 0 else { throw .invalidValue(property: property, reason: "a blur radius cannot be negative") }
        guard radius <= VisualEffect.maximumBlurRadius else {
            throw .invalidValue(property: property, reason: "a blur radius is at most \(Int(VisualEffect.maximumBlurRadius)), not \(radius)")
        }
        return VisualEffect(blurRadius: radius)
    }
}

/// A custom background drawn by code. Compared by name: closures cannot be compared, and traces
/// must say which drawing applied.
public struct CustomBackgroundView: Hashable, Sendable, PropertyValueConvertible {
    public let name: String
    /// Records the drawing for a background of the given size, origin at zero.
    public let draw: @Sendable (Size, TraitCollection) -> DisplayList

    public init(name: String, draw: @escaping @Sendable (Size, TraitCollection) -> DisplayList) {
        self.name = name
        self.draw = draw
    }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public var propertyValue: PropertyValue { .symbolic("custom:" + name) }
    public static var propertyKindName: String { "custom view (set from code)" }
    /// Only nil can be set by name; a drawing function comes from code.
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> CustomBackgroundView? {
        throw .invalidValue(property: property, reason: "a custom view is set from code, not by value")
    }
}

extension BackgroundConfiguration {
    /// The factory of a style by its name ("listSidebarCell"), for event streams; nil for unknown names.
    public init?(styleName: String) {
        guard let style = Style(rawValue: styleName) else { return nil }
        self = .styled(style)
    }

    static func styled(_ style: Style) -> Self {
        var c = BackgroundConfiguration(style: style)
        c.applyDefaults(for: CellConfigurationState())
        return c
    }
}
