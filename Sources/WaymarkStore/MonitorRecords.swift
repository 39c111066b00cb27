package import WaymarkMonitoring

/// An event kept until its app acknowledges it: its place in the app's queue (increasing,
/// never reused) and the monitor it belongs to.
package struct QueuedMonitorEvent: Hashable, Sendable {
    /// The event's sequence number, unique in the store and increasing.
    package var sequence: Int64
    /// The name of the monitor the event belongs to.
    package var monitor: String
    /// The event.
    package var event: MonitorEvent

    package init(sequence: Int64, monitor: String, event: MonitorEvent) {
        self.sequence = sequence
        self.monitor = monitor
        self.event = event
    }
}

/// An app's unacknowledged events, oldest first, and how many older ones were dropped because
/// its queue was full.
package struct PendingMonitorEvents: Hashable, Sendable {
    /// The events, oldest first.
    package var events: [QueuedMonitorEvent]
    /// Events dropped (oldest first) since the app last acknowledged.
    package var dropped: Int

    package init(events: [QueuedMonitorEvent], dropped: Int) {
        self.events = events
        self.dropped = dropped
    }
}
