import WaymarkClock

/// A consumer's need for one fix at or after an instant, such as the geofence monitors' next
/// evaluation (`EvaluationScheduler`, docs/monitoring.md): the receiver is powered only when
/// that fix is due, not continuously.
///
/// The demand holds until the caller moves it (after each fix it uses, it asks for the next)
/// or withdraws it. While the receiver is on, a demand due within the receiver's hot start is
/// treated as due: powering down and up again would cost more than staying on. A due demand
/// that finds no fix within a cold start's time (indoors, say; the engine's
/// `acquisitionTimeout`) is dropped, so a consumer that cannot be served does not hold the
/// receiver on; the caller asks again later.
struct FixDemand {
    /// The instant the fix is wanted, or nil.
    private(set) var instant: Instant?

    /// Whether the demand needs the receiver now.
    func needsReceiver(at now: Instant, isOn: Bool, hotStart: Duration) -> Bool {
        guard let instant else { return false }
        return now >= instant || (isOn && instant - now <= hotStart)
    }

    /// The deadline at which the demand falls due, while it is in the future.
    func deadline(after now: Instant) -> Instant? {
        guard let instant, instant > now else { return nil }
        return instant
    }

    mutating func set(_ instant: Instant?) {
        self.instant = instant
    }
}
