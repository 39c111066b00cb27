extension Dictionary {
    /// Moves the entries into storage sized for them once they fill less than a quarter of the
    /// storage: a dictionary keeps its storage after removals, so a table with an entry per
    /// connection would hold the memory of its busiest moment (thousands of clients that came
    /// and went) for the rest of the daemon's run. Called after removals; the move costs the
    /// entries left, and comes only after at least half as many removals: amortized constant.
    package mutating func releaseSpareCapacity() {
        guard capacity > 64, count < capacity / 4 else { return }
        var resized = Self(minimumCapacity: count)
        for (key, value) in self { resized[key] = value }
        self = resized
    }
}
