package import WaymarkClock

/// What a location source tells the time service, in the order it happened.
package enum TimeEvent: Hashable, Sendable {
    /// A PPS edge the kernel stamped at `edge` on the monotonic timeline, with both clocks read
    /// when it was read.
    case pulse(edge: Instant, clocks: ClockReading)
    /// The time of an epoch, when its fix is complete.
    case epoch(EpochTime)
}
