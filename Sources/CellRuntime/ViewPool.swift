import CellKit

/// Views of rows that scrolled away, waiting for rows that scroll in.
struct ViewPool {
    var cells: [Cell] = []
    var headerFooters: [HeaderFooterView] = []
}
