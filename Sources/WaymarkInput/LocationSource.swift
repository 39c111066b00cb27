package import WaymarkClock
package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkLocation
package import WaymarkReceiver

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
    /// Starts producing events on `loop`, which go to the engine as they are (a source
    /// reports only what the receiver and the accelerometer did: fixes, the motion interrupt,
    /// samples, failures); `timeline` maps the loop's clock to the engine's.
    func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws
    /// Powers the receiver up or down.
    func setReceiverPower(on: Bool, reason: String)
    /// Changes what the accelerometer does.
    func setAccelerometer(_ command: AccelerometerCommand)
    /// Stops, releasing descriptors and timers.
    func stop()
    /// The UTC the source's fixes carry at the timeline's `instant`, when the source keeps its
    /// own clock truth (a simulated board's scenario, a replayed capture, both dated when they
    /// were written); `nil` when fixes carry a receiver's UTC, which the system clock estimates.
    func fixClock(at instant: Instant) -> Timestamp?
}

extension LocationSource {
    /// A receiver's fixes are on UTC: the system clock is the estimate.
    package func fixClock(at instant: Instant) -> Timestamp? { nil }
}
