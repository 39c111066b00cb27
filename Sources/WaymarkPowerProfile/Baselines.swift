import WaymarkClock
import WaymarkReceiver
import WaymarkSimulation

/// The two baselines a power run is compared with, from the same scenario and receiver.
struct Baselines {
    /// Receiver on all day: one cold start, then tracking. mWh.
    let alwaysOn: Double
    /// Receiver on exactly while the device truly moves where a receiver could fix (not in a
    /// lift: no signal reaches it there, so even an oracle gains nothing by powering it); each
    /// restart first spends its time
    /// to first fix acquiring (cold the first time, then hot while the ephemeris or the
    /// receiver's own orbit prediction is valid, warm after); backup current the rest of the
    /// time. mWh.
    let oracle: Double

    init(profile: ReceiverProfile, trajectory: Trajectory) {
        let total = (trajectory.end - Instant.zero).seconds
        let cold = profile.coldStart.seconds
        let milliampSeconds = cold * profile.acquisitionCurrent + (total - cold) * profile.trackingCurrent
        alwaysOn = milliampSeconds / 3_600 * profile.supplyVoltage

        var onSeconds = 0.0
        var charge = 0.0
        var lastFix: Instant?
        var lastPrediction: Instant?
        for interval in trajectory.fixableMovingIntervals {
            let start: Duration
            if let lastFix, interval.lowerBound - lastFix <= profile.ephemerisValidity {
                start = profile.hotStart
            } else if let lastPrediction, let prediction = profile.orbitPrediction,
                interval.lowerBound - lastPrediction < prediction.validity
            {
                start = profile.hotStart
            } else {
                start = lastFix == nil ? profile.coldStart : profile.warmStart
            }
            let moving = interval.upperBound - interval.lowerBound
            charge += start.seconds * profile.acquisitionCurrent + moving.seconds * profile.trackingCurrent
            onSeconds += start.seconds + moving.seconds
            lastFix = interval.upperBound
            if let prediction = profile.orbitPrediction, moving >= prediction.computeTime { lastPrediction = interval.upperBound }
        }
        charge += max(0, total - onSeconds) * profile.backupCurrent
        oracle = charge / 3_600 * profile.supplyVoltage
    }
}
