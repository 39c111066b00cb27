import WaymarkClock
import WaymarkLocation

extension Timestamp {
    /// This date moved by `offset`, saturating at the representable extremes: the times come
    /// from the caller and every input must be survivable.
    func advanced(by offset: Duration) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch.saturatingAdvanced(by: offset))
    }
}
