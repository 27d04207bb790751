extension Array {
    /// Removes every element and keeps the storage, for a working list refilled on every event.
    /// For the few elements such lists hold, popping them is cheaper than
    /// `removeAll(keepingCapacity:)`, which goes through the general `replaceSubrange`.
    @inlinable public mutating func removeAllKeepingStorage() {
        while popLast() != nil {}
    }
}

extension Array {
    /// Takes this array's storage, emptied, for a list that is filled, handed out and dropped by
    /// its receiver before the next call (an event's trace record): once the receiver let go of
    /// the last one, the same storage is refilled with no allocation. While the receiver still
    /// holds it, its elements are copied to storage of this list's own first (as any change to a
    /// shared array does). Leaves `self` empty; store the filled list back into it when handing
    /// it out.
    @inlinable public mutating func takeForRefill() -> [Element] {
        var taken: [Element] = []
        swap(&self, &taken)
        taken.removeAllKeepingStorage()
        return taken
    }
}
