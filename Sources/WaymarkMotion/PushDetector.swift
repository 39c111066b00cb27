import WaymarkClock

/// Tells the sustained push of a vehicle pulling off from the vibration of its idling engine,
/// on a device at rest (`docs/power.md`, "A gentle pull-off in a quiet car").
///
/// Vibration is zero-mean, propulsion is a sustained offset. The first ``averaging`` of
/// samples after ``restart()`` is the rest reference (gravity as the device lies, with the
/// engine's shaking averaged out); from then on the mean of the last ``averaging`` is compared
/// with it, and the device moves once that mean deviates across gravity (the reference's
/// direction) by more than ``threshold`` for ``sustainedDuration`` without a break. A push
/// along gravity alone is a lift, where no receiver can fix; a vehicle pulls off along the
/// ground (and pitches back, which only adds to the deviation across). A mean over a quarter of a second leaves of a
/// vibration at f Hz at most its amplitude / (π f × 0.25 s): 2.5 mg of a 50 mg engine at
/// 25 Hz, 3 mg of a door slam's ringing; keystrokes, one-signed bumps of 20 ms every 0.2 s,
/// leave about 1 mg. A pull-off pushes its acceleration for seconds.
package struct PushDetector: Hashable, Sendable {
    /// Deviation of the mean from the rest reference that counts as a push, mg: half the
    /// gentlest ordinary start of transport (0.5 m/s², 51 mg: a car pulling off gently,
    /// buses and trams 0.5–1 m/s²), and several times what a device at rest leaves in the
    /// mean (sensor noise averaged down to under 1 mg, the vibration residue above, one
    /// step of the chips' 4 mg resolution).
    package var threshold: Double
    /// The length of the mean, and of the rest reference.
    package var averaging: Duration
    /// How long the mean must stay above the threshold: as long again as the mean itself,
    /// so that a knock (a mean raised only while the knock is inside it) does not count.
    package var sustainedDuration: Duration

    /// The length of the short mean that tells a push may be starting (``isRising``).
    package var onsetAveraging = Duration.milliseconds(100)

    /// The settings used unless a configuration says otherwise.
    package init(threshold: Double = 25, averaging: Duration = .milliseconds(250), sustainedDuration: Duration = .milliseconds(250)) {
        self.threshold = threshold
        self.averaging = averaging
        self.sustainedDuration = sustainedDuration
    }

    /// The highest output rate of the supported chips (ADXL345: 3,200 Hz) rounded up; a rate
    /// above it (or none) is not a window to judge, which bounds the running mean's memory.
    static let highestRate = 10_000.0

    private var rate: Double?
    private var reference: AccelerationSample?
    private var referenceSum = AccelerationSample(x: 0, y: 0, z: 0)
    private var referenceCount = 0
    private var recent: [AccelerationSample] = []
    private var recentCount = 0
    private var aboveSeconds = 0.0

    /// Whether the mean was off the reference at the end of the last window without having
    /// stayed there for ``sustainedDuration`` yet: a push may be starting. The engine powers
    /// the receiver on it, as on the wake interrupt, and the next windows confirm or not.
    package var isRising: Bool { rising && aboveSeconds < sustainedDuration.seconds }
    private var rising = false

    /// Forgets the reference and the running mean: the next samples are the device at rest.
    package mutating func restart() {
        rate = nil
        reference = nil
        referenceSum = AccelerationSample(x: 0, y: 0, z: 0)
        referenceCount = 0
        resumeAfterGap()
    }

    /// Forgets the running mean but keeps the reference: the samples go on after a gap in
    /// which the device was not seen to move (a glance at a calm paused device).
    package mutating func resumeAfterGap() {
        recent = []
        aboveSeconds = 0
        rising = false
    }

    /// Judges the next window of samples taken at `rate` Hz: `.moving` once a push has been
    /// sustained, `.vibration` when a sample deviated from the reference by more than
    /// `noiseFloor` mg, `.still` otherwise (and while the reference is being taken).
    package mutating func judge(_ samples: [AccelerationSample], rate: Double, noiseFloor: Double) -> MotionVerdict {
        guard rate > 0, rate <= Self.highestRate else { return .still }
        // Samples at another rate are another stream: the reference is taken again from them.
        if rate != self.rate { restart() }
        self.rate = rate
        let length = max(1, Int((averaging.seconds * rate).rounded()))
        if recent.isEmpty {
            recent = [AccelerationSample](repeating: AccelerationSample(x: 0, y: 0, z: 0), count: length)
            recentCount = 0
        }
        // The sum is taken afresh for each window, so rounding cannot build up over hours.
        var recentSum = AccelerationSample(x: 0, y: 0, z: 0)
        for deviation in recent { recentSum.add(deviation) }
        let onsetLength = min(length, max(1, Int((onsetAveraging.seconds * rate).rounded())))
        var peak = 0.0
        var pushed = false
        for sample in samples {
            guard let reference else {
                referenceSum.add(sample)
                referenceCount += 1
                if referenceCount >= length { reference = referenceSum.scaled(1 / Double(referenceCount)) }
                continue
            }
            let deviation = sample.minus(reference)
            peak = max(peak, deviation.magnitude)
            let slot = recentCount % length
            recentSum.add(deviation)
            recentSum.add(recent[slot].scaled(-1))
            recent[slot] = deviation
            recentCount += 1
            if recentCount >= onsetLength {
                var onsetSum = AccelerationSample(x: 0, y: 0, z: 0)
                for back in 0..<onsetLength { onsetSum.add(recent[(slot + length - back) % length]) }
                rising = onsetSum.scaled(1 / Double(onsetLength)).across(reference).magnitude > threshold
            }
            guard recentCount >= length else { continue }
            if recentSum.scaled(1 / Double(length)).across(reference).magnitude > threshold {
                rising = true
                aboveSeconds += 1 / rate
                if aboveSeconds >= sustainedDuration.seconds { pushed = true }
            } else {
                aboveSeconds = 0
            }
        }
        if pushed { return .moving }
        return peak > noiseFloor ? .vibration : .still
    }
}

extension AccelerationSample {
    fileprivate mutating func add(_ other: AccelerationSample) {
        x += other.x
        y += other.y
        z += other.z
    }

    fileprivate func minus(_ other: AccelerationSample) -> AccelerationSample {
        AccelerationSample(x: x - other.x, y: y - other.y, z: z - other.z)
    }

    fileprivate func scaled(_ factor: Double) -> AccelerationSample {
        AccelerationSample(x: x * factor, y: y * factor, z: z * factor)
    }

    /// What is left of this vector once its component along `direction` is removed.
    fileprivate func across(_ direction: AccelerationSample) -> AccelerationSample {
        let length = direction.x * direction.x + direction.y * direction.y + direction.z * direction.z
        guard length > 0 else { return self }
        return minus(direction.scaled((x * direction.x + y * direction.y + z * direction.z) / length))
    }
}
