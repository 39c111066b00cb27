import WaymarkLocation

/// Whether a fix's horizontal accuracy can decide anything.
///
/// Core Location's convention: a negative accuracy means the position is not valid. Beyond
/// ``maximumDecisive`` the position does not come from satellites (a GNSS fix at HDOP 20 is
/// still about 100 m), so it decides no state and bounds no schedule.
enum Accuracy {
    /// The largest horizontal accuracy, metres, that may decide a state.
    static let maximumDecisive = 1_000.0

    /// The fix's horizontal accuracy when it is positive, finite and at most ``maximumDecisive``,
    /// and its position is finite; `nil` otherwise.
    static func decisive(_ location: Location) -> Double? {
        let accuracy = location.horizontalAccuracy
        guard accuracy > 0, accuracy <= maximumDecisive, location.latitude.isFinite, location.longitude.isFinite
        else { return nil }
        return accuracy
    }
}
