import WaymarkClock
import WaymarkReceiver
import WaymarkSimulation

/// The two baselines a power run is compared with, from the same scenario and receiver.
struct Baselines {
    /// Receiver on all day: one cold start, then tracking. mWh.
    let alwaysOn: Double
    /// Receiver on exactly while the device truly moves where a receiver could fix (not in a
    /// lift: no signal reaches it there, so even an oracle gains nothing by powering it), and
    /// for the subscription's first location when the device is at rest at the start; each
    /// start first spends its time to first fix acquiring (cold the first time, then hot while
    /// the ephemeris or the receiver's own orbit prediction is valid, warm after); backup
    /// current the rest of the time. mWh.
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
        // The subscription starts with the scenario and is owed a location even on a device at
        // rest (Core Location's pause update carries one, WWDC23 10180): unless the device moves
        // before a cold start could give it, the oracle gets it with one, as soon as a signal
        // reaches the device, then goes down.
        let signal = trajectory.signalReturn(atOrAfter: .zero)
        if trajectory.fixableMotionStarts.first.map({ $0 >= signal + profile.coldStart }) ?? true {
            charge += profile.coldStart.seconds * profile.acquisitionCurrent
            onSeconds += profile.coldStart.seconds
            lastFix = signal + profile.coldStart
        }
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
