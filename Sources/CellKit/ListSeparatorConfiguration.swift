/// UIKit's `UIListSeparatorConfiguration`: a cell's top and bottom hairlines — whether each is
/// drawn, how far each is inset from the leading and trailing edges, and their colours. A list
/// gives every row one (`UICollectionLayoutListConfiguration.separatorConfiguration`) and a row
/// may have its own (`itemSeparatorHandler`).
///
/// Choices where UIKit's documentation is silent: an automatic top separator is hidden (rows are
/// separated by the bottom hairline of the row above); an automatic bottom separator follows
/// `ListSeparatorVisibility.automatic`. An automatic leading inset lines the hairline up with the
/// text (the separator layout guide, indentation included); an automatic trailing inset is 0.
/// `multipleSelectionColor` (nil = `color`) is used while the cell is selected.
public struct ListSeparatorConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// Leading and trailing insets of one separator; nil = automatic (UIKit's `automaticInsets`).
    public struct Insets: Hashable, Sendable {
        public var leading: Double?
        public var trailing: Double?
        public init(leading: Double? = nil, trailing: Double? = nil) {
            self.leading = leading
            self.trailing = trailing
        }
        public static let automatic = Insets()
    }

    public enum Edge: String, Sendable { case top, bottom }

    public var topSeparatorVisibility: ListSeparatorVisibility = .automatic
    public var bottomSeparatorVisibility: ListSeparatorVisibility = .automatic
    public var topSeparatorInsets = Insets.automatic
    public var bottomSeparatorInsets = Insets.automatic
    public var color: Color = .separator
    public var multipleSelectionColor: Color?

    public init() {}

    public func visibility(_ edge: Edge) -> ListSeparatorVisibility {
        edge == .top ? topSeparatorVisibility : bottomSeparatorVisibility
    }

    public func insets(_ edge: Edge) -> Insets { edge == .top ? topSeparatorInsets : bottomSeparatorInsets }

    /// The colour a cell draws its separators in.
    public func color(selected: Bool) -> Color { selected ? multipleSelectionColor ?? color : color }

    /// "top visible inset 0–0, color systemRed", for traces: what differs from UIKit's defaults
    /// ("defaults" when nothing does).
    public var description: String {
        var parts: [String] = []
        for e in [Edge.top, .bottom] where visibility(e) != .automatic || insets(e) != .automatic {
            var s = e.rawValue
            if visibility(e) != .automatic { s += " " + visibility(e).rawValue }
            let i = insets(e)
            if i != .automatic {
                s += " inset " + (i.leading.map(formatPoints) ?? "auto") + "–" + (i.trailing.map(formatPoints) ?? "auto")
            }
            parts.append(s)
        }
        if color != .separator { parts.append("color \(color)") }
        if let multipleSelectionColor { parts.append("selected \(multipleSelectionColor)") }
        return parts.isEmpty ? "defaults" : parts.joined(separator: ", ")
    }
}

extension ConfigurableView {
    /// Whether the separators take `multipleSelectionColor`: asked only when one is set.
    var separatorsSelected: Bool {
        separatorsHaveSelectionColor && (configurationState as? CellConfigurationState)?.isSelected == true
    }

    /// Records the cell's top and bottom separators (headers and footers draw none).
    /// `automaticLeading` is where the text starts when the caller knows it (a decorated cell's
    /// content view sits beside its accessories); nil = the content view laid out across the cell.
    @inline(__always)
    func drawSeparators(size: Size, isLastInSection: Bool, context: LayoutContext, automaticLeading: Double? = nil,
                        into list: inout DisplayList) {
        guard role == .cell else { return }
        if usesDefaultSeparators {
            if let bottom = defaultBottomSeparatorFrame(size: size, isLastInSection: isLastInSection, context: context,
                                                        automaticLeading: automaticLeading) {
                list.append(.fill(bottom, Color.separator.resolved(with: context.traits)))
            }
            return
        }
        let configuration = separatorConfiguration
        let top = separatorFrame(.top, of: configuration, size: size, isLastInSection: isLastInSection, context: context,
                                 automaticLeading: automaticLeading)
        let bottom = separatorFrame(.bottom, of: configuration, size: size, isLastInSection: isLastInSection, context: context,
                                    automaticLeading: automaticLeading)
        guard top != nil || bottom != nil else { return }
        let color = configuration.color(selected: separatorsSelected).resolved(with: context.traits)
        if let top { list.append(.fill(top, color)) }
        if let bottom { list.append(.fill(bottom, color)) }
    }

    /// One hairline of a cell: one pixel at the display scale, at the cell's top or bottom, from
    /// its leading inset (automatic: where the text starts) to its trailing inset, mirrored right
    /// to left; nil when it is not drawn.
    public func separatorFrame(_ edge: ListSeparatorConfiguration.Edge, size: Size, isLastInSection: Bool,
                               context: LayoutContext) -> Rect? {
        guard role == .cell else { return nil }
        if usesDefaultSeparators {
            return edge == .top ? nil : defaultBottomSeparatorFrame(size: size, isLastInSection: isLastInSection, context: context)
        }
        return separatorFrame(edge, of: separatorConfiguration, size: size, isLastInSection: isLastInSection, context: context)
    }

    /// UIKit's default: the bottom hairline where the list draws one, from the text to the edge.
    @inline(__always)
    private func defaultBottomSeparatorFrame(size: Size, isLastInSection: Bool, context: LayoutContext,
                                             automaticLeading: Double? = nil) -> Rect? {
        guard appearance.showsSeparators, !isLastInSection || appearance.separatesLastRowOfSection else { return nil }
        return hairline(at: size.height, leading: automaticLeading ?? automaticSeparatorLeading(size: size, context: context), trailing: 0,
                        size: size, context: context, bottom: true)
    }

    private func separatorFrame(_ edge: ListSeparatorConfiguration.Edge, of configuration: ListSeparatorConfiguration,
                                size: Size, isLastInSection: Bool, context: LayoutContext,
                                automaticLeading: Double? = nil) -> Rect? {
        switch configuration.visibility(edge) {
        case .hidden: return nil
        case .visible: break
        case .automatic:
            guard edge == .bottom, appearance.showsSeparators,
                  !isLastInSection || appearance.separatesLastRowOfSection else { return nil }
        }
        let insets = configuration.insets(edge)
        let leading = insets.leading.map { min(size.width, max(0, $0)) }
            ?? automaticLeading ?? automaticSeparatorLeading(size: size, context: context)
        return hairline(at: edge == .top ? 0 : size.height, leading: leading, trailing: max(0, insets.trailing ?? 0),
                        size: size, context: context, bottom: edge == .bottom)
    }

    /// Where the text starts (the separator layout guide), indentation included.
    @inline(__always)
    private func automaticSeparatorLeading(size: Size, context: LayoutContext) -> Double {
        let indentation = min(size.width, indentation)
        return min(size.width, indentation + max(0, contentView?.separatorLeadingInset(width: size.width - indentation, context: context)
            ?? layoutMargins.leading))
    }

    /// A hairline one pixel thick at the display scale, inside the cell's top or bottom edge at `y`.
    @inline(__always)
    private func hairline(at y: Double, leading: Double, trailing: Double, size: Size, context: LayoutContext,
                          bottom: Bool) -> Rect {
        let trailing = min(size.width - leading, trailing)
        let thickness = 1 / max(1, context.traits.displayScale)
        let x = context.traits.layoutDirection == .rightToLeft ? trailing : leading
        return Rect(x: x, y: bottom ? y - thickness : y, width: size.width - leading - trailing, height: thickness)
    }
}
