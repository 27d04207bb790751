import CellKit

extension EngineRow {
    /// The list content's image as laid out, in words ("symbol:ellipsis 26×21, reserved
    /// 29×21"), for the row's first update record: the image's own size (a symbol's is its
    /// glyph's advance) and the area text aligns to. nil for content without an image. The
    /// sizes do not depend on the width, so any width lays them out.
    func imageTrace(traits: TraitCollection, measurer: any TextMeasuring) -> String? {
        let content: (any ContentConfiguration)?
        switch view {
        case .cell(let cell): content = cell.contentConfiguration
        case .headerFooter(let header): content = header.contentConfiguration
        case nil: return nil
        }
        guard let list = content as? ListContentConfiguration, let image = list.image else { return nil }
        let layout = ListContentLayout(configuration: list, width: size.width,
                                       context: LayoutContext(traits: traits, textMeasurer: measurer))
        guard let frame = layout.imageFrame, let reserved = layout.imageLayoutFrame else { return nil }
        return "\(image) \(frame.size), reserved \(reserved.size)"
    }
}
