/// Something a layer was drawn with other than asked (an unknown symbol, an unreadable image),
/// kept with the layer's id so the caller can name the cell it belongs to.
public struct LayerProblem: Sendable, Hashable, CustomStringConvertible {
    public var layer: Int
    public var message: String

    public init(layer: Int, message: String) {
        self.layer = layer
        self.message = message
    }

    public var description: String { "layer \(layer): \(message)" }
}
