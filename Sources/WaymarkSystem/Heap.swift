import CWaymarkSystem

/// The process's malloc heap.
package enum Heap {
    /// The size from which an allocation is mapped on its own (and unmapped when freed), and
    /// the free memory at the heap's top past which glibc gives it back: glibc's defaults.
    package static let returnThreshold = 128 << 10

    /// Keeps glibc from raising its thresholds (mallopt(3) `M_MMAP_THRESHOLD`,
    /// `M_TRIM_THRESHOLD`): by default, freeing one large mapped block (a table that thousands
    /// of clients grew) raises them to that block's size, and from then on large blocks stay
    /// in the heap and megabytes of freed memory stay resident. For a daemon that must come
    /// back to its resting size after every burst.
    package static func fixReturnThresholds() {
        _ = waymark_malloc_fix_thresholds(Int32(returnThreshold))
    }

    /// Gives freed heap memory back to the system (malloc_trim(3)): glibc keeps it otherwise,
    /// so a daemon's resident size would stay at its peak after a burst of connections.
    package static func releaseFreedMemory() {
        _ = waymark_malloc_trim(0)
    }
}
