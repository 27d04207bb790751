/// Renderer layers by id. Ids are handed out in sequence from a small counter (one per row made),
/// so each has a slot of its own: finding a layer is an index, not a hash of the id, and a
/// changed row finds its layer twice per event. Inlinable, so the renderers' modules specialise
/// it for their layer classes.
public struct LayerSlots<Layer: AnyObject> {
    @usableFromInline var slots: [Layer?] = []

    public init() {}

    @inlinable public subscript(id: Int) -> Layer? {
        get { id >= 0 && id < slots.count ? slots[id] : nil }
        set {
            precondition(id >= 0, "layer ids are not negative (got \(id))")
            if id >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: id - slots.count + 1))
            }
            slots[id] = newValue
        }
    }

    /// Takes the layer out of its slot.
    @inlinable public mutating func removeValue(forKey id: Int) -> Layer? {
        guard let layer = self[id] else { return nil }
        slots[id] = nil
        return layer
    }
}
