extension Array {
    /// Removes every element and keeps the storage, for a working list refilled on every event.
    /// For the few elements such lists hold, popping them is cheaper than
    /// `removeAll(keepingCapacity:)`, which goes through the general `replaceSubrange`.
    @inlinable public mutating func removeAllKeepingStorage() {
        while popLast() != nil {}
    }
}
