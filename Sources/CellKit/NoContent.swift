/// What a view's content slot holds while it has no content configuration (the slot is a plain
/// existential, so a pass reads it in place; a flag says it is empty). Never shown.
struct NoContent: ContentConfiguration, Equatable {
    var typeIdentifier: String { "com.cellhost.no-content" }
    func makeContentView() -> any ContentView { NoContentView() }
    func updated(for state: any ConfigurationState) -> NoContent { self }
}

/// The view of `NoContent`: it takes no room and draws nothing.
final class NoContentView: ContentView {
    var configuration: any ContentConfiguration = NoContent()
    func supports(_ configuration: any ContentConfiguration) -> Bool { configuration is NoContent }
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: 0) }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {}
}
