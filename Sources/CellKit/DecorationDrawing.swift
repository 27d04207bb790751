/// How a decorated cell records its accessories and open swipe actions, as UIKit draws them:
/// the system glyphs from the symbol catalogue (chevrons, checkmark, info circle), the editing
/// controls as tinted discs with a white bar or cross, the reorder grip as three bars, the
/// outline disclosure pointing down when the cell is expanded, and swipe buttons as full-height
/// fills with a white image above a white title.
extension DecorationLayout {
    /// Records every placed accessory, with colours resolved for the traits, and the accessories
    /// `hidden` lists (placed as the other editing state shows them) fully transparent: a cell
    /// records the same commands whether editing or not, so an animated editing change moves
    /// the content and fades the controls, command by command, instead of cross-fading the row.
    public func drawAccessories(state: CellConfigurationState, context: LayoutContext, hidden: [PlacedAccessory] = [],
                                into list: inout DisplayList) {
        let traits = context.traits
        let rtl = traits.layoutDirection == .rightToLeft
        let f = scale
        // A selected sidebar cell sits on the tint fill and draws its content in white: so do
        // its accessories that keep their default tint (the editing controls keep their colours).
        let onTintFill = (traits.listEnvironment == .sidebar || traits.listEnvironment == .sidebarPlain)
            && (state.isSelected || state.isFocused)
        let drawn = hidden.isEmpty ? accessories.map { ($0, false) }
            : (accessories.map { ($0, false) } + hidden.map { ($0, true) }).sorted { $0.0.index < $1.0.index }
        for (placed, isHidden) in drawn {
            let a = placed.accessory, r = placed.frame
            let whiteOnFill: Bool
            switch a.kind {
            case .delete, .insert, .multiselect: whiteOnFill = false
            default: whiteOnFill = onTintFill && a.tintColor == nil
            }
            func shown(_ c: Color) -> Color { isHidden ? Color(red: c.red, green: c.green, blue: c.blue, alpha: 0) : c }
            let tint = shown(whiteOnFill ? Color.white : a.resolvedTint(cellTint: context.tintColor).resolved(with: traits))
            let white = shown(Color.white)
            switch a.kind {
            case .disclosureIndicator:
                let side = r.height
                list.append(.symbol(name: rtl ? "chevron.left" : "chevron.right", frame: centredSquare(side, in: r),
                                    pointSize: side, weight: .semibold, color: tint))
            case .outlineDisclosure:
                let name = state.isExpanded ? "chevron.down" : (rtl ? "chevron.left" : "chevron.right")
                list.append(.symbol(name: name, frame: r, pointSize: r.height, weight: .semibold, color: tint))
            case .checkmark:
                list.append(.symbol(name: "checkmark", frame: r, pointSize: r.height, weight: .semibold, color: tint))
            case .detail:
                list.append(.symbol(name: "info.circle", frame: r, pointSize: r.height, weight: .regular, color: tint))
            case .delete, .insert:
                list.append(.roundedRect(r, cornerRadius: r.width / 2, color: tint))
                let bar = Rect(x: r.midX - 5.5 * f, y: r.midY - 1.25 * f, width: 11 * f, height: 2.5 * f)
                list.append(.roundedRect(bar, cornerRadius: 1.25 * f, color: white))
                if case .insert = a.kind {
                    let upright = Rect(x: r.midX - 1.25 * f, y: r.midY - 5.5 * f, width: 2.5 * f, height: 11 * f)
                    list.append(.roundedRect(upright, cornerRadius: 1.25 * f, color: white))
                }
            case .reorder:
                let thickness = 1.5 * f
                for i in 0..<3 {
                    let y = r.minY + Double(i) * (r.height - thickness) / 2
                    list.append(.roundedRect(Rect(x: r.minX, y: y, width: r.width, height: thickness),
                                             cornerRadius: thickness / 2, color: tint))
                }
            case .multiselect:
                if state.isSelected {
                    list.append(.roundedRect(r, cornerRadius: r.width / 2, color: tint))
                    let check = r.insetBy(dx: r.width * 0.27, dy: r.height * 0.27)
                    list.append(.symbol(name: "checkmark", frame: check, pointSize: check.height, weight: .bold, color: white))
                } else {
                    let ring = shown(a.tintColor?.resolved(with: traits) ?? Color.tertiaryLabel.resolved(with: traits))
                    list.append(.stroke(r, cornerRadius: r.width / 2, width: 1.5 * f, color: ring))
                }
            case .label(let text):
                list.append(.text(TextRun(text: text, font: AccessoryMetrics.labelFont(traits), color: tint, frame: r,
                                          alignment: .natural, numberOfLines: 1, layoutDirection: traits.layoutDirection)))
            case .customView(let image, _):
                switch image.source {
                case .symbol(let name):
                    list.append(.symbol(name: name, frame: r, pointSize: r.height, weight: .regular, color: tint))
                case .file(let path):
                    list.append(.image(path: path, frame: r, contentMode: .scaleAspectFit, tint: image.isTemplate ? tint : nil))
                }
            }
        }
    }

    /// Records the open swipe actions' buttons.
    public func drawSwipeActions(context: LayoutContext, into list: inout DisplayList) {
        guard !swipeActions.isEmpty else { return }
        let traits = context.traits
        let font = SwipeActionMetrics.titleFont(traits)
        let white = Color.white
        for placed in swipeActions {
            let a = placed.action, r = placed.labelFrame
            list.append(.fill(placed.frame, a.resolvedBackgroundColor.resolved(with: traits)))
            let title = a.title.map { t in
                (t, context.textMeasurer.measure(TextLayoutRequest(text: t, font: font, numberOfLines: 1,
                                                                   layoutDirection: traits.layoutDirection), width: nil).size)
            }
            let side = SwipeActionMetrics.imageSide(traits)
            let spacing = 4.0
            let blockHeight = (a.image != nil ? side : 0) + (title.map { $0.1.height } ?? 0)
                + (a.image != nil && title != nil ? spacing : 0)
            var y = (r.midY - blockHeight / 2).rounded()
            if let image = a.image {
                let frame = Rect(x: (r.midX - side / 2).rounded(), y: y, width: side, height: side)
                switch image.source {
                case .symbol(let name):
                    list.append(.symbol(name: name, frame: frame, pointSize: side, weight: .medium, color: white))
                case .file(let path):
                    list.append(.image(path: path, frame: frame, contentMode: .scaleAspectFit, tint: white))
                }
                y += side + spacing
            }
            if let (text, size) = title {
                let frame = Rect(x: r.minX, y: y, width: r.width, height: size.height.rounded(.up))
                list.append(.text(TextRun(text: text, font: font, color: white, frame: frame, alignment: .center,
                                          numberOfLines: 1, layoutDirection: traits.layoutDirection)))
            }
        }
    }

    private func centredSquare(_ side: Double, in r: Rect) -> Rect {
        Rect(x: (r.midX - side / 2).rounded(), y: r.minY, width: side, height: side)
    }
}
