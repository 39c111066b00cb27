package import WaymarkMotion
package import WaymarkReceiver

/// Everything the engine is configured with.
package struct EngineSettings: Hashable, Sendable {
    /// The receiver.
    package var receiver: ReceiverProfile
    /// The state the board's power strategy puts the receiver in: `.backup` for a GPIO
    /// enable line with the backup supply kept or a UBX backup request, `.standby` for PMTK
    /// standby, `.off` when nothing survives; `nil` when the board cannot power it down (it
    /// stays on and only delivery pauses).
    package var poweredDownState: ReceiverPowerState?
    /// Whether locations come from a simulation (replay, simulated board).
    package var isSimulated: Bool
    /// Whether an accelerometer is available; without one, stationary detection uses the
    /// GPS alone and the receiver is woken periodically while paused.
    package var hasAccelerometer: Bool
    /// Accelerometer sampling rate while the detector watches for the end of movement, Hz.
    package var samplingRate: Double
    /// The activity threshold armed in the accelerometer while the receiver is down, mg.
    package var motionWakeThreshold: Double
    /// How the detector tells movement from vibration.
    package var classifier: MotionClassifier
    /// Accelerometer sampling rate while a paused device is watched for a gentle push
    /// (``pushDetector``), Hz. An idling engine fires at 20–30 Hz (four cylinders at 600–900
    /// rpm): at 50 Hz it reads as a 20–25 Hz shake, which the detector's quarter-second mean
    /// cancels; at 25 Hz it would fold down to a 0–5 Hz wobble that no short mean cancels.
    /// Shaking near 50 Hz itself is what the chips' output filter (bandwidth half the rate)
    /// removes.
    package var pushSamplingRate: Double
    /// How a paused device that vibrates tells a sustained push from its vibration.
    package var pushDetector: PushDetector
    /// Once the watch of a calm paused device has ended: how long after it, and after each
    /// glance, the device is watched again for one span of the classifier (a glance), since a
    /// push under the wake threshold (60 mg, 0.59 m/s²) fires no interrupt. Such a start has
    /// moved ½ × 0.59 × (2 s + the glance's 0.5 s + a 1 s hot start)² ≈ 3.6 m by its first
    /// fix; at 4 s it would be 8 m, most of a day's 10 m in one pull-off. The cost: the chip
    /// in normal mode a fifth of the paused time, and one or two FIFO reads a glance.
    package var pushGlanceInterval: Duration
    /// Without an accelerometer: how often a paused receiver is woken to check for movement.
    package var gpsOnlyWakeInterval: Duration
    /// Without an accelerometer: how far the position must move from where it stopped.
    package var gpsOnlyMovedDistance: Double
    /// While tracking, how long without a usable fix before updates say `locationUnavailable`.
    package var unavailableAfter: Duration

    /// Creates settings; the defaults suit a u-blox M8 with an accelerometer.
    package init(
        receiver: ReceiverProfile = .ubloxM8, poweredDownState: ReceiverPowerState? = .backup, isSimulated: Bool = false, hasAccelerometer: Bool = true,
        samplingRate: Double = 25, motionWakeThreshold: Double = 60, classifier: MotionClassifier = MotionClassifier(),
        pushSamplingRate: Double = 50, pushDetector: PushDetector = PushDetector(), pushGlanceInterval: Duration = .seconds(2),
        gpsOnlyWakeInterval: Duration = .seconds(30), gpsOnlyMovedDistance: Double = 25,
        unavailableAfter: Duration = .seconds(3)
    ) {
        self.receiver = receiver
        self.poweredDownState = poweredDownState
        self.isSimulated = isSimulated
        self.hasAccelerometer = hasAccelerometer
        self.samplingRate = samplingRate
        self.motionWakeThreshold = motionWakeThreshold
        self.classifier = classifier
        self.pushSamplingRate = pushSamplingRate
        self.pushDetector = pushDetector
        self.pushGlanceInterval = pushGlanceInterval
        self.gpsOnlyWakeInterval = gpsOnlyWakeInterval
        self.gpsOnlyMovedDistance = gpsOnlyMovedDistance
        self.unavailableAfter = unavailableAfter
    }

    /// How long a receiver may take to find its first fix from nothing (a cold start, with
    /// margin): until then a calm accelerometer alone does not power it down.
    package var acquisitionTimeout: Duration { receiver.coldStart + .seconds(15) }
}
