import WaymarkClock
import WaymarkReceiver

/// Keeps a paused receiver able to start hot, so that the first fix after hours or days of
/// stillness takes about a second instead of a warm start's 25–35 s.
///
/// A receiver starts hot while its stored broadcast ephemeris is valid
/// (``ReceiverProfile/ephemerisValidity`` after its last fix) or while its own orbit prediction
/// (``OrbitPrediction``: AssistNow Autonomous, EASY) is, and it computes that prediction only
/// while it tracks, for ``OrbitPrediction/computeTime``. So, just before the later of the two
/// runs out (``wakeMargin`` before, while the start is still hot), a paused receiver is woken
/// once and kept on until it has tracked for the compute time; the new prediction holds for
/// days. A pause shorter than the ephemeris's validity costs nothing, and a stretch of
/// tracking as long as the compute time has already computed a prediction. A wake that gets
/// no fix within the acquisition timeout is not tried again for the same expiry
/// (`docs/power.md`, "Orbit prediction: when a wake pays").
struct OrbitUpkeep: Sendable {
    /// How long before the hot start runs out the receiver is woken: its acquisition timeout
    /// and the compute time fit many times over.
    static let wakeMargin = Duration.seconds(600)

    let prediction: OrbitPrediction?
    let ephemerisValidity: Duration
    let acquisitionTimeout: Duration
    /// When the receiver last computed a prediction (tracked for its compute time).
    private(set) var computedAt: Instant?
    /// The last fix, from which the stored ephemeris ages.
    private var lastFix: Instant?
    /// The first fix of the current stretch of tracking.
    private var trackingSince: Instant?
    /// When the receiver was powered up for the prediction, while that wake lasts.
    private(set) var wakingSince: Instant?
    /// The expiry a wake was last tried for: one try each.
    private var triedFor: Instant?

    init(receiver: ReceiverProfile, acquisitionTimeout: Duration) {
        prediction = receiver.orbitPrediction
        ephemerisValidity = receiver.ephemerisValidity
        self.acquisitionTimeout = acquisitionTimeout
    }

    /// A usable fix came while the receiver was on.
    mutating func fixArrived(at now: Instant) {
        lastFix = now
        if trackingSince == nil { trackingSince = now }
    }

    /// The receiver was powered down at `now`.
    mutating func poweredDown(at now: Instant) {
        if let prediction, let trackingSince, now - trackingSince >= prediction.computeTime { computedAt = now }
        trackingSince = nil
        wakingSince = nil
    }

    /// Until when the receiver can start hot: the later of its ephemeris's and its
    /// prediction's expiry; `nil` without a prediction to keep or before any fix.
    private var hotStartExpiry: Instant? {
        guard let prediction, let lastFix else { return nil }
        let ephemerisExpiry = lastFix + ephemerisValidity
        guard let computedAt else { return ephemerisExpiry }
        return max(ephemerisExpiry, computedAt + prediction.validity)
    }

    /// When the next wake is due, unless it was tried for this expiry already.
    private var wakeDue: Instant? {
        guard let expiry = hotStartExpiry, triedFor != expiry else { return nil }
        return expiry - Self.wakeMargin
    }

    /// Whether the receiver should be on at `now` for the prediction's sake, `isOn` telling
    /// whether it is; a wake that is due starts here.
    mutating func needsReceiver(at now: Instant, isOn: Bool) -> Bool {
        if let wakingSince {
            if let trackingSince, let prediction {
                guard now - trackingSince >= prediction.computeTime else { return true }
                computedAt = now
            } else if now - wakingSince < acquisitionTimeout {
                return true
            }
            self.wakingSince = nil
            return false
        }
        guard !isOn, let due = wakeDue, due <= now, let expiry = hotStartExpiry else { return false }
        triedFor = expiry
        // Past the expiry the start is no longer hot: the wake would not pay.
        guard now < expiry else { return false }
        wakingSince = now
        return true
    }

    /// The next instant ``needsReceiver(at:isOn:)`` may change its answer.
    func nextDeadline(isOn: Bool) -> Instant? {
        if let wakingSince {
            if let trackingSince, let prediction { return trackingSince + prediction.computeTime }
            return wakingSince + acquisitionTimeout
        }
        return isOn ? nil : wakeDue
    }
}
