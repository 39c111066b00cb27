import WaymarkClock
import WaymarkLocation

/// A one-shot location request converging on the desired accuracy.
struct PendingRequest: Sendable {
    let number: RequestNumber
    let desiredAccuracy: Double
    let deadline: Instant
    /// The most accurate location seen so far.
    private(set) var best: Location?

    init(number: RequestNumber, desiredAccuracy: Double, deadline: Instant) {
        self.number = number
        self.desiredAccuracy = desiredAccuracy
        self.deadline = deadline
    }

    /// Offers a location; returns the answer once one is accurate enough.
    mutating func offer(_ location: Location) -> Result<Location, LocationError>? {
        if best.map({ location.horizontalAccuracy <= $0.horizontalAccuracy }) ?? true { best = location }
        return location.horizontalAccuracy <= desiredAccuracy ? .success(location) : nil
    }

    /// The answer at the deadline: the best location seen, or "location unknown".
    func timedOut() -> Result<Location, LocationError> {
        best.map { .success($0) } ?? .failure(.locationUnknown)
    }
}
