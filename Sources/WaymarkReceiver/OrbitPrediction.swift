/// A receiver's own orbit prediction: u-blox AssistNow Autonomous (UBX-CFG-NAVX5, `useAOP`),
/// MediaTek EASY (PMTK869). From broadcast ephemerides it has decoded, the receiver computes
/// orbits for the days ahead, so that a start after its ephemeris expired is hot-like instead
/// of a warm start that downloads the ephemeris again (30 s and more).
///
/// What the data sheets say, and so what is modelled (sources in `docs/simulation.md`):
/// * it works only while enabled (the host sends the command after every power-up);
/// * the receiver computes it itself while it tracks: it must have had a fix and tracked
///   long enough to decode the broadcast ephemeris (``computeTime``) — a receiver powered
///   down sooner keeps the prediction it had;
/// * it lives in the receiver's memory: kept in backup (V_BCKP, VBAT) and standby, lost
///   when the receiver loses all power;
/// * it is usable for up to ``validity`` after it was computed, and gives a first fix in
///   about the hot start's time, less accurate until the broadcast ephemeris is decoded.
package struct OrbitPrediction: Hashable, Sendable {
    /// How long after it was computed the prediction still allows a hot-like start.
    package var validity: Duration
    /// Tracking time after the first fix before a prediction is computed: one navigation
    /// frame (the broadcast ephemeris repeats every 30 s).
    package var computeTime: Duration
    /// The position error of fixes from predicted orbits, as a multiple of the receiver's
    /// error, until the broadcast ephemeris is decoded (``computeTime`` after the first fix).
    package var errorFactor: Double

    /// Creates the figures of an orbit prediction.
    package init(validity: Duration, computeTime: Duration = .seconds(30), errorFactor: Double = 2) {
        self.validity = validity
        self.computeTime = computeTime
        self.errorFactor = errorFactor
    }

    /// AssistNow Autonomous and EASY: up to three days.
    package static let threeDays = OrbitPrediction(validity: .seconds(3 * 24 * 3_600))
}
