import CellKit

/// What one `renderFrame()` did: the damage it repainted and what that cost.
public struct FrameReport: Sendable, CustomStringConvertible {
    /// Sequence number of the frame, from 0.
    public var index: Int
    /// The frame's `Damage` as it read it: disjoint framebuffer rectangles (pixels) that were
    /// repainted; empty = nothing changed.
    public var damage: [PixelRect]
    /// Pixels repainted: the `Damage`'s area (each pixel once).
    public var pixelsTouched: Int
    public var layersRastered: Int
    public var layersComposited: Int
    /// Drawing changed layers' DisplayLists into their layer buffers.
    public var rasterDuration: Duration
    /// Painting background, backdrop blurs and layers into the damaged region of the framebuffer.
    public var compositeDuration: Duration
    /// Things drawn other than asked (unknown symbol, unreadable image) by the layers rastered.
    public var problems: [LayerProblem]

    public var hasDamage: Bool { !damage.isEmpty }

    /// Bounding box of all damage rectangles.
    public var damageBounds: PixelRect { damage.reduce(PixelRect.zero) { $0.union($1) } }

    public var description: String {
        "frame \(index): \(damage.count) damage rect(s) \(damageBounds), \(pixelsTouched) px, "
            + "\(layersRastered) rastered, \(layersComposited) composited, raster \(rasterDuration), composite \(compositeDuration)"
    }
}
