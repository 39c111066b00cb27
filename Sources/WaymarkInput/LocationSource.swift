package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkFix
package import WaymarkLocation
package import WaymarkMotion
package import WaymarkReceiver

/// What a location source reports to the agent.
package enum SourceEvent: Sendable {
    /// The receiver completed an epoch.
    case fix(Fix)
    /// The accelerometer's motion-wake interrupt fired.
    case motionInterrupt
    /// Accelerometer samples, as asked for with ``LocationSource/setAccelerometer(_:)``.
    case accelerometerSamples([AccelerationSample], rate: Double)
    /// The accelerometer failed; stationary detection continues on the GPS alone.
    case accelerometerFailed(reason: String)
    /// The receiver's stream failed or went silent.
    case receiverLost(reason: String)
}

/// Where locations come from: a receiver on a serial port, a replayed capture, the
/// simulated board. A source runs on the agent's event loop and owns its descriptors and
/// timers there; it carries out the engine's power and accelerometer commands.
package protocol LocationSource: AnyObject {
    /// What the status report says about the source.
    var summary: StatusReport.Source { get }
    /// The state the source's power strategy puts the receiver in, or `nil` when it cannot
    /// power it down (only delivery pauses).
    var poweredDownState: ReceiverPowerState? { get }
    /// Whether there is an accelerometer.
    var hasAccelerometer: Bool { get }
    /// Starts producing events on `loop`; `timeline` maps the loop's clock to the engine's.
    func start(on loop: EventLoop, timeline: Timeline, events: @escaping (SourceEvent) -> Void) throws
    /// Powers the receiver up or down.
    func setReceiverPower(on: Bool, reason: String)
    /// Changes what the accelerometer does.
    func setAccelerometer(_ command: AccelerometerCommand)
    /// Stops, releasing descriptors and timers.
    func stop()
}
