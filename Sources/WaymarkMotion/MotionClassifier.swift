import WaymarkClock

/// Tells movement from vibration in windows of accelerometer samples.
///
/// Gravity is tracked as a slow low-pass of the acceleration vector, across windows and
/// across the time the chip sleeps in motion-wake mode (a device at rest does not turn, so
/// its gravity vector is still right when it wakes); what remains is the dynamic
/// acceleration. A short moving average (``smoothing``) removes engine and road
/// vibration (20–30 Hz) and the sharp edge of knocks. The window counts as movement when the
/// smoothed dynamic acceleration stays above ``movementThreshold`` for at least
/// ``sustainedDuration`` in total: walking (±200–400 mg at about 2 Hz), pulling off (a
/// sustained 100–300 mg push), a lift (50–100 mg for a second or two). A door slam
/// (a spike shorter than 100 ms), typing, and an idling engine do not reach it.
package struct MotionClassifier: Hashable, Sendable {
    /// Smoothed dynamic acceleration that counts toward movement, mg.
    package var movementThreshold: Double
    /// How long, in total within a window, the threshold must be exceeded.
    package var sustainedDuration: Duration
    /// Length of the moving average that removes vibration.
    package var smoothing: Duration
    /// Time constant of the gravity estimate.
    package var gravityTimeConstant: Duration
    /// Dynamic acceleration below this is sensor noise, mg.
    package var noiseFloor: Double

    /// The settings used unless a configuration says otherwise (see `docs/semantics.md`).
    package init(
        movementThreshold: Double = 40, sustainedDuration: Duration = .milliseconds(300),
        smoothing: Duration = .milliseconds(120), gravityTimeConstant: Duration = .seconds(2),
        noiseFloor: Double = 8
    ) {
        self.movementThreshold = movementThreshold
        self.sustainedDuration = sustainedDuration
        self.smoothing = smoothing
        self.gravityTimeConstant = gravityTimeConstant
        self.noiseFloor = noiseFloor
    }

    private var gravity: AccelerationSample?
    private var recent: [AccelerationSample] = []
    private var recentSum = AccelerationSample(x: 0, y: 0, z: 0)
    private var recentCount = 0

    /// Classifies the next window of samples taken at `rate` Hz.
    package mutating func classify(_ samples: [AccelerationSample], rate: Double) -> MotionVerdict {
        guard let first = samples.first, rate > 0 else { return .still }
        let interval = 1 / rate
        let gravityWeight = min(1, interval / max(gravityTimeConstant.seconds, interval))
        let averageLength = max(1, Int((smoothing.seconds * rate).rounded()))
        if recent.count != averageLength {
            recent = [AccelerationSample](repeating: AccelerationSample(x: 0, y: 0, z: 0), count: averageLength)
            recentSum = AccelerationSample(x: 0, y: 0, z: 0)
            recentCount = 0
        }
        var gravity = self.gravity ?? first
        var aboveSeconds = 0.0
        var peak = 0.0
        for sample in samples {
            gravity.x += (sample.x - gravity.x) * gravityWeight
            gravity.y += (sample.y - gravity.y) * gravityWeight
            gravity.z += (sample.z - gravity.z) * gravityWeight
            let dynamic = AccelerationSample(x: sample.x - gravity.x, y: sample.y - gravity.y, z: sample.z - gravity.z)
            // Averaging the vector (not its length) cancels vibration that alternates in sign.
            let slot = recentCount % averageLength
            recentSum.x += dynamic.x - recent[slot].x
            recentSum.y += dynamic.y - recent[slot].y
            recentSum.z += dynamic.z - recent[slot].z
            recent[slot] = dynamic
            recentCount += 1
            peak = max(peak, dynamic.magnitude)
            let count = Double(min(recentCount, averageLength))
            let smoothed = AccelerationSample(x: recentSum.x / count, y: recentSum.y / count, z: recentSum.z / count)
            if smoothed.magnitude > movementThreshold { aboveSeconds += interval }
        }
        self.gravity = gravity
        if aboveSeconds >= sustainedDuration.seconds { return .moving }
        return peak > noiseFloor ? .vibration : .still
    }

    /// Forgets the running average (not gravity) before sampling resumes after a pause.
    package mutating func resume() {
        recent = []
    }
}
