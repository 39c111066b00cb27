import WaymarkClock
import WaymarkLocation

/// A one-shot location request converging on the desired accuracy.
struct PendingRequest: Sendable {
    let number: RequestID
    let desiredAccuracy: Double
    let deadline: Instant
    /// The answer if it had to be given now: the newest location that is not significantly
    /// less accurate than the most accurate one seen (fresher at no loss the accuracy model
    /// can tell).
    private(set) var candidate: Location?
    /// The best horizontal accuracy seen, metres.
    private var bestAccuracy = Double.infinity

    init(number: RequestID, desiredAccuracy: Double, deadline: Instant) {
        self.number = number
        self.desiredAccuracy = desiredAccuracy
        self.deadline = deadline
    }

    /// Offers a location, with whether the receiver's accuracy has stopped improving;
    /// returns the answer once the location is accurate enough or the accuracy converged.
    mutating func offer(_ location: Location, converged: Bool) -> Result<Location, LocationError>? {
        let accuracy = location.horizontalAccuracy
        guard accuracy >= 0 else { return nil }  // unknown accuracy: nothing to judge by
        bestAccuracy = min(bestAccuracy, accuracy)
        if !Convergence.isSignificantlyBetter(bestAccuracy, than: accuracy) { candidate = location }
        if accuracy <= desiredAccuracy { return .success(location) }
        return converged ? candidate.map { .success($0) } : nil
    }

    /// The answer at the deadline: the candidate, or "location unknown".
    func timedOut() -> Result<Location, LocationError> {
        candidate.map { .success($0) } ?? .failure(.locationUnknown)
    }
}
