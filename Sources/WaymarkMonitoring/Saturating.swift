import WaymarkClock
import WaymarkLocation

/// Nanosecond sums that saturate instead of trapping: the times come from the caller and
/// every input must be survivable.
private func saturatingSum(_ nanoseconds: Int64, _ offset: Duration) -> Int64 {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(offset.nanoseconds)
    return overflow ? (offset < .zero ? .min : .max) : sum
}

extension Timestamp {
    /// This date moved by `offset`, saturating at the representable extremes.
    func advanced(by offset: Duration) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: saturatingSum(nanosecondsSinceEpoch, offset))
    }
}

extension Instant {
    /// This instant moved by `offset`, saturating at the timeline's extremes.
    func advanced(by offset: Duration) -> Instant {
        Instant(nanoseconds: saturatingSum(nanoseconds, offset))
    }
}
