package import WaymarkLocation

/// The newest fixes the bridge received, to find the one that decided a monitor event (its
/// date is the fix's time). Bounded: ``capacity`` fixes, the oldest forgotten first.
package struct RecentFixes: Sendable {
    /// How many fixes are kept: a minute of one fix a second, as long as the daemon may take to
    /// send an event after its fix.
    package static let capacity = 64
    private var fixes: [Location] = []

    /// No fixes yet.
    package init() {}

    /// Keeps `fix`.
    package mutating func record(_ fix: Location) {
        if fixes.count == Self.capacity { fixes.removeFirst() }
        fixes.append(fix)
    }

    /// The fix of time `date`, if it is kept.
    package func fix(at date: Timestamp) -> Location? {
        fixes.last { $0.timestamp == date }
    }

    /// Whether a fix of `date` or later has been received: a fix of `date` not kept by then will not come.
    package func hasReached(_ date: Timestamp) -> Bool {
        fixes.last.map { $0.timestamp >= date } ?? false
    }
}
