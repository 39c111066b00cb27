import WaymarkClock
import CWaymarkDrivers
package import WaymarkHardware
package import WaymarkSystem

/// One edge seen on an input line.
package struct GPIOEdge: Hashable, Sendable {
    /// Rising (to active) or falling.
    package var rising: Bool
    /// When the kernel saw it.
    package var timestamp: MonotonicInstant

    /// Creates an edge.
    package init(rising: Bool, timestamp: MonotonicInstant) {
        self.rising = rising
        self.timestamp = timestamp
    }
}

/// Which edges an input reports.
package enum EdgeSelection: Int32, Sendable {
    /// Inactive to active.
    case rising = 1
    /// Active to inactive.
    case falling = 2
    /// Both.
    case both = 3
}

/// A line requested as an input with edge events: the event loop watches ``descriptor`` and
/// calls ``readEdges(_:)`` when it is readable. Edges closer together than the debounce
/// period are dropped: by the kernel with libgpiod v2, by ``EdgeDebouncer`` with v1.
package final class GPIOEdgeInput {
    /// The line's offset on its chip.
    package let offset: UInt32
    /// Readable while edge events are queued; nonblocking.
    package let descriptor: FileDescriptor
    private let request: OpaquePointer
    private let chip: GPIOChip
    private var debouncer: EdgeDebouncer?

    /// Requests `line` on `chip` for `edges`, debounced over `debounce`.
    package init(
        chip: GPIOChip, line: LineID, activeLow: Bool, edges: EdgeSelection = .rising,
        debounce: Duration = .zero, consumer: String = "waymarkd"
    ) throws(SystemError) {
        let offset = try chip.offset(of: line)
        let microseconds = UInt(max(0, debounce.seconds * 1_000_000))
        guard let request = waymark_gpio_request_edges(chip.handle, offset, consumer, activeLow ? 1 : 0, edges.rawValue, microseconds) else {
            throw lastError("gpiod request edge events", "\(chip.path) line \(line)")
        }
        let fd = waymark_gpio_event_fd(request)
        guard fd >= 0 else {
            waymark_gpio_release(request)
            throw SystemError(errno: -fd, call: "gpiod event fd", argument: chip.path)
        }
        self.offset = offset
        self.request = request
        self.chip = chip
        descriptor = FileDescriptor(rawValue: fd)
        if waymark_gpio_kernel_debounces() == 0 && debounce > .zero {
            debouncer = EdgeDebouncer(period: debounce)
        }
    }

    /// Edges read per call at most: what the kernel queues for a line (16 events with libgpiod
    /// v1's line handles, the default per line with v2). A line that keeps toggling (a
    /// bouncing contact, a miswired clock) must not hold the loop from the clients: the loop
    /// reports ``descriptor`` again on its next turn while edges wait.
    package static let maximumEdgesPerRead = 16

    /// Reads the queued edges, at most ``maximumEdgesPerRead``, calling `body` for each that
    /// passes the debounce.
    package func readEdges(_ body: (GPIOEdge) -> Void) throws(SystemError) {
        try Self.take(atMost: Self.maximumEdgesPerRead, from: nextEdge) { edge in
            if debouncer?.accept(edge.timestamp) ?? true { body(edge) }
        }
    }

    /// Calls `body` with the edges `next` gives until it has none or `maximum` were taken.
    package static func take(
        atMost maximum: Int, from next: () throws(SystemError) -> GPIOEdge?, _ body: (GPIOEdge) -> Void
    ) throws(SystemError) {
        for _ in 0..<maximum {
            guard let edge = try next() else { return }
            body(edge)
        }
    }

    /// The next queued edge, or nil when none waits.
    private func nextEdge() throws(SystemError) -> GPIOEdge? {
        var raw = waymark_gpio_edge()
        guard try checkShim("gpiod read edge", "\(chip.path) line \(offset)", waymark_gpio_read_edge(request, &raw)) == 1 else {
            return nil
        }
        return GPIOEdge(rising: raw.rising != 0, timestamp: MonotonicInstant(nanoseconds: Int64(raw.timestamp_ns)))
    }

    /// The line's current value, in its active sense.
    package func isActive() throws(SystemError) -> Bool {
        try checkShim("gpiod get value", "\(chip.path) line \(offset)", waymark_gpio_get_value(request)) == 1
    }

    /// Releases the line; unregister ``descriptor`` from the event loop first.
    package func release() {
        waymark_gpio_release(request)
    }
}
