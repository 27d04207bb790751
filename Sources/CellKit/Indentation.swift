/// Where a cell's content sits once it is indented for its outline level (UIKit's
/// `UICollectionViewListCell.indentationLevel` × `indentationWidth`).
public enum ConfigurableViewIndentation {
    /// UIKit documents 10 points per level for table cells and no other figure for list cells;
    /// list cells use the same.
    public static let defaultWidth: Double = 10
}

extension ConfigurableView {
    /// `bounds` less the indentation on the leading side (the right in right-to-left layouts):
    /// where the content view lays out and draws. Unindented rows get `bounds` itself.
    func contentBounds(in bounds: Rect) -> Rect {
        guard self.indentation > 0 else { return bounds }
        let indentation = min(bounds.width, self.indentation)
        let x = traitCollection.layoutDirection == .rightToLeft ? bounds.minX : bounds.minX + indentation
        return Rect(x: x, y: bounds.minY, width: bounds.width - indentation, height: bounds.height)
    }
}
