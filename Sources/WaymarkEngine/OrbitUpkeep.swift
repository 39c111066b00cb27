import WaymarkClock
import WaymarkReceiver

/// Keeps the receiver's own orbit prediction (``OrbitPrediction``: AssistNow Autonomous, EASY)
/// usable, so that a start after hours or days of stillness is hot-like instead of a warm
/// start of 25–35 s. It only asks for the receiver where that pays (`docs/power.md`, "Orbit
/// prediction: when a wake pays"):
/// * **Hold.** When no fresh prediction is known, a receiver that got a fix stays on until it
///   has tracked for the prediction's ``OrbitPrediction/computeTime`` (at most that long,
///   once in its validity): cheaper than the warm start it saves.
/// * **Refresh.** A receiver still for nearly the prediction's validity is woken once to
///   compute a new one, ``refreshMargin`` before it expires, and held as above.
/// A refresh that finds no fix within the acquisition timeout is not tried again for the same
/// prediction.
struct OrbitUpkeep: Sendable {
    /// How long before the prediction expires a still receiver is woken to refresh it.
    static let refreshMargin = Duration.seconds(3_600)

    let prediction: OrbitPrediction?
    let acquisitionTimeout: Duration
    /// When the receiver last finished tracking long enough to compute a prediction.
    private(set) var computedAt: Instant?
    /// The first fix of the current stretch of tracking.
    private var trackingSince: Instant?
    /// When the receiver was powered up to refresh the prediction, while that lasts.
    private(set) var refreshingSince: Instant?
    /// The prediction a refresh was last tried for: one try each.
    private var refreshTriedFor: Instant?

    init(receiver: ReceiverProfile, acquisitionTimeout: Duration) {
        prediction = receiver.orbitPrediction
        self.acquisitionTimeout = acquisitionTimeout
    }

    /// When the hold ends: the first fix of a stretch plus the compute time, when no fresh
    /// prediction was known then.
    private var holdUntil: Instant?

    /// A usable fix came while the receiver was on.
    mutating func fixArrived(at now: Instant) {
        guard trackingSince == nil else { return }
        trackingSince = now
        if let prediction, !isFresh(at: now) { holdUntil = now + prediction.computeTime }
    }

    /// The receiver was powered down at `now`.
    mutating func poweredDown(at now: Instant) {
        if let prediction, let trackingSince, now - trackingSince >= prediction.computeTime { computedAt = now }
        trackingSince = nil
        holdUntil = nil
        refreshingSince = nil
    }

    /// Whether the prediction is fresh: computed less than its validity minus the margin ago.
    private func isFresh(at now: Instant) -> Bool {
        guard let prediction, let computedAt else { return false }
        return now - computedAt < prediction.validity - Self.refreshMargin
    }

    /// Whether the receiver should be on at `now` for the prediction's sake, `isOn` telling
    /// whether it is; a refresh that is due starts here.
    mutating func needsReceiver(at now: Instant, isOn: Bool) -> Bool {
        if let holdUntil {
            guard now >= holdUntil else { return true }
            // Tracking this long computed a prediction (kept current while it lasts).
            self.holdUntil = nil
            computedAt = now
            return false
        }
        guard !isFresh(at: now), trackingSince == nil else { return false }
        if let refreshingSince { return now - refreshingSince < acquisitionTimeout }
        guard !isOn, let due = refreshDue, due <= now else { return false }
        refreshingSince = now
        refreshTriedFor = computedAt
        return true
    }

    /// When the prediction is to be refreshed: once for each prediction, before it expires.
    private var refreshDue: Instant? {
        guard let prediction, let computedAt, refreshTriedFor != computedAt else { return nil }
        return computedAt + prediction.validity - Self.refreshMargin
    }

    /// The next instant ``needsReceiver(at:isOn:)`` may change its answer.
    func nextDeadline(isOn: Bool) -> Instant? {
        if let holdUntil { return holdUntil }
        if let refreshingSince, trackingSince == nil { return refreshingSince + acquisitionTimeout }
        return isOn ? nil : refreshDue
    }
}
