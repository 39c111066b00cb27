import CWaymarkSystem

/// The process's malloc heap.
package enum Heap {
    /// Gives freed heap memory back to the system (malloc_trim(3)): glibc keeps it otherwise,
    /// so a daemon's resident size would stay at its peak after a burst of connections.
    package static func releaseFreedMemory() {
        _ = waymark_malloc_trim(0)
    }
}
