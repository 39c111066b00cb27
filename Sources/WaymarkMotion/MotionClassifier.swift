import WaymarkClock

/// Tells movement from vibration in windows of accelerometer samples.
///
/// Gravity is tracked as a slow low-pass of the acceleration vector, across windows and
/// across the time the chip sleeps in motion-wake mode (a device at rest does not turn, so
/// its gravity vector is still right when it wakes); what remains is the dynamic
/// acceleration. A short moving average (``smoothing``) removes engine and road
/// vibration (20–30 Hz) and the sharp edge of knocks. The device moves when the smoothed
/// dynamic acceleration has stayed above ``movementThreshold`` for at least
/// ``sustainedDuration`` in total within the last ``span`` of samples, whatever the length
/// of the windows they arrive in (the sources hand them over every 100 ms): walking
/// (±200–400 mg at about 2 Hz), pulling off (a sustained 100–300 mg push), a lift
/// (50–100 mg for a second or two). A door slam
/// (a spike shorter than 100 ms), typing, and an idling engine do not reach it.
package struct MotionClassifier: Hashable, Sendable {
    /// Smoothed dynamic acceleration that counts toward movement, mg.
    package var movementThreshold: Double
    /// How long, in total within ``span``, the threshold must be exceeded.
    package var sustainedDuration: Duration
    /// The stretch of the latest samples judged at each window.
    package var span: Duration
    /// Length of the moving average that removes vibration.
    package var smoothing: Duration
    /// Time constant of the gravity estimate.
    package var gravityTimeConstant: Duration
    /// Dynamic acceleration below this is sensor noise, mg.
    package var noiseFloor: Double

    /// The settings used unless a configuration says otherwise (see `docs/semantics.md`).
    package init(
        movementThreshold: Double = 40, sustainedDuration: Duration = .milliseconds(300),
        span: Duration = .milliseconds(500), smoothing: Duration = .milliseconds(120), gravityTimeConstant: Duration = .seconds(2),
        noiseFloor: Double = 8
    ) {
        self.movementThreshold = movementThreshold
        self.sustainedDuration = sustainedDuration
        self.span = span
        self.smoothing = smoothing
        self.gravityTimeConstant = gravityTimeConstant
        self.noiseFloor = noiseFloor
    }

    private var gravity: AccelerationSample?
    private var rate = 0.0
    private var recent: [AccelerationSample] = []
    private var recentCount = 0
    /// Whether each sample of the last ``span`` was above the threshold, and how many were.
    private var aboveFlags: [Bool] = []
    private var aboveCount = 0
    private var judgedCount = 0

    /// Whether a whole ``span`` of samples has been judged since sampling (re)started: before
    /// that, a verdict other than `.moving` is not yet a verdict on the span.
    package var hasJudgedSpan: Bool { !aboveFlags.isEmpty && judgedCount >= aboveFlags.count }

    /// Classifies the latest ``span`` once the next window of samples, taken at `rate` Hz, is
    /// added: `.moving` as above, `.vibration` when a sample of this window deviated from
    /// gravity by more than ``noiseFloor``, `.still` otherwise.
    package mutating func classify(_ samples: [AccelerationSample], rate: Double) -> MotionVerdict {
        guard let first = samples.first, rate > 0, rate <= PushDetector.highestRate else { return .still }
        let interval = 1 / rate
        let gravityWeight = min(1, interval / max(gravityTimeConstant.seconds, interval))
        if rate != self.rate || recent.isEmpty || aboveFlags.isEmpty {
            self.rate = rate
            let smoothingLength = max(1, Int((smoothing.seconds * rate).rounded()))
            recent = [AccelerationSample](repeating: AccelerationSample(x: 0, y: 0, z: 0), count: smoothingLength)
            recentCount = 0
            aboveFlags = [Bool](repeating: false, count: max(1, Int((span.seconds * rate).rounded(.down))))
            aboveCount = 0
            judgedCount = 0
        }
        var gravity = self.gravity ?? first
        var peak = 0.0
        // The sum is taken afresh for each window, so rounding cannot build up over hours.
        var recentSum = recent.reduce(AccelerationSample(x: 0, y: 0, z: 0)) {
            AccelerationSample(x: $0.x + $1.x, y: $0.y + $1.y, z: $0.z + $1.z)
        }
        for sample in samples {
            gravity.x += (sample.x - gravity.x) * gravityWeight
            gravity.y += (sample.y - gravity.y) * gravityWeight
            gravity.z += (sample.z - gravity.z) * gravityWeight
            let dynamic = AccelerationSample(x: sample.x - gravity.x, y: sample.y - gravity.y, z: sample.z - gravity.z)
            // Averaging the vector (not its length) cancels vibration that alternates in sign.
            let slot = recentCount % recent.count
            recentSum.x += dynamic.x - recent[slot].x
            recentSum.y += dynamic.y - recent[slot].y
            recentSum.z += dynamic.z - recent[slot].z
            recent[slot] = dynamic
            recentCount += 1
            peak = max(peak, dynamic.magnitude)
            let count = Double(min(recentCount, recent.count))
            let smoothed = AccelerationSample(x: recentSum.x / count, y: recentSum.y / count, z: recentSum.z / count)
            let flag = judgedCount % aboveFlags.count
            if aboveFlags[flag] { aboveCount -= 1 }
            aboveFlags[flag] = smoothed.magnitude > movementThreshold
            if aboveFlags[flag] { aboveCount += 1 }
            judgedCount += 1
        }
        self.gravity = gravity
        if Double(aboveCount) * interval >= sustainedDuration.seconds { return .moving }
        return peak > noiseFloor ? .vibration : .still
    }

    /// Forgets the running average and the span (not gravity) before sampling resumes after a
    /// pause.
    package mutating func resume() {
        recent = []
        aboveFlags = []
        aboveCount = 0
        judgedCount = 0
    }
}
