import WaymarkMotion

/// The receiver states the power ledger accounts for.
public enum ReceiverPowerState: String, Hashable, Sendable, CaseIterable {
    /// Main supply off; the backup supply (if any) keeps time and ephemeris.
    case off
    /// Powered, no fix yet.
    case acquiring
    /// Powered, delivering fixes.
    case tracking
    /// Navigation stopped by a command (PMTK standby); wakes on any byte.
    case standby
}

/// What the engine must know about the receiver, and how it powers it down.
public struct ReceiverCharacteristics: Hashable, Sendable {
    /// Time to first fix after a short power-down with backup supply kept.
    public var hotStart: Duration
    /// How long a receiver may take to find its first fix from nothing (a cold start, with
    /// margin): until then a calm accelerometer alone does not power it down.
    public var acquisitionTimeout: Duration
    /// Current drawn in each state, milliamperes.
    public var current: [ReceiverPowerState: Double]
    /// Supply voltage, volts.
    public var voltage: Double
    /// The state the board's power strategy puts the receiver in: `.off` for a GPIO enable
    /// line or a UBX backup request, `.standby` for PMTK standby; `nil` when the board cannot
    /// power it down (the receiver stays on; only delivery pauses).
    public var poweredDownState: ReceiverPowerState?

    /// Creates receiver characteristics.
    public init(
        hotStart: Duration, acquisitionTimeout: Duration = .seconds(45), current: [ReceiverPowerState: Double],
        voltage: Double, poweredDownState: ReceiverPowerState? = .off
    ) {
        self.hotStart = hotStart
        self.acquisitionTimeout = acquisitionTimeout
        self.current = current
        self.voltage = voltage
        self.poweredDownState = poweredDownState
    }

    /// u-blox M8 at 3.0 V (SAM-M8Q data sheet): 29 mA tracking, 32 mA acquiring, 17.5 µA
    /// backup, 1 s hot start.
    public static let ubloxM8 = ReceiverCharacteristics(
        hotStart: .seconds(1),
        current: [.off: 0.0175, .acquiring: 32, .tracking: 29, .standby: 9.5], voltage: 3.0)
}

/// Everything the engine is configured with.
public struct EngineSettings: Hashable, Sendable {
    /// The receiver.
    public var receiver: ReceiverCharacteristics
    /// Whether locations come from a simulation (replay, simulated board).
    public var isSimulated: Bool
    /// Whether an accelerometer is available; without one, stationary detection uses the
    /// GPS alone and the receiver is woken periodically while paused.
    public var hasAccelerometer: Bool
    /// Accelerometer sampling rate while the detector watches for the end of movement, Hz.
    public var samplingRate: Double
    /// The activity threshold armed in the accelerometer while the receiver is down, mg.
    public var motionWakeThreshold: Double
    /// How the detector tells movement from vibration.
    public var classifier: MotionClassifier
    /// Without an accelerometer: how often a paused receiver is woken to check for movement.
    public var gpsOnlyWakeInterval: Duration
    /// Without an accelerometer: how far the position must move from where it stopped.
    public var gpsOnlyMovedDistance: Double
    /// While tracking, how long without a usable fix before updates say `locationUnavailable`.
    public var unavailableAfter: Duration

    /// Creates settings; the defaults suit a u-blox M8 with an accelerometer.
    public init(
        receiver: ReceiverCharacteristics = .ubloxM8, isSimulated: Bool = false, hasAccelerometer: Bool = true,
        samplingRate: Double = 25, motionWakeThreshold: Double = 120, classifier: MotionClassifier = MotionClassifier(),
        gpsOnlyWakeInterval: Duration = .seconds(30), gpsOnlyMovedDistance: Double = 25,
        unavailableAfter: Duration = .seconds(3)
    ) {
        self.receiver = receiver
        self.isSimulated = isSimulated
        self.hasAccelerometer = hasAccelerometer
        self.samplingRate = samplingRate
        self.motionWakeThreshold = motionWakeThreshold
        self.classifier = classifier
        self.gpsOnlyWakeInterval = gpsOnlyWakeInterval
        self.gpsOnlyMovedDistance = gpsOnlyMovedDistance
        self.unavailableAfter = unavailableAfter
    }
}
