package import WaymarkDrivers
package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkReceiver
import WaymarkSystem
package import WaymarkLocation

/// A receiver's NMEA byte stream at a known rate: a UART (libserialport), a USB receiver, or
/// a pseudo-terminal or FIFO (tests, piped captures). Bytes go through the real decoder on
/// the event loop (``ReceiverLink``).
///
/// A device that is missing or cannot be opened at start is reported and retried the same way.
/// A receiver that goes away (unplugged, the other end of a pty closed), a read error, or a
/// stream that stays silent while the receiver should be talking is reported as
/// ``EngineEvent/receiverLost(reason:)`` once; the port is reopened with backoff until it
/// works again. Garbage and wrong baud rates produce no fixes and are reported the same way.
/// A board file's receiver, with rate detection, power control and the accelerometer, is a
/// ``BoardSource``.
package final class StreamSource: ReceiverBytesSource {
    /// How the port is opened.
    package typealias PortKind = ReceiverPortKind

    private let link: ReceiverLink
    private let powerControl: (any ByteStreamPort) -> any GPSPowerControl
    private let canPowerDown: Bool
    private var power: (any GPSPowerControl)?
    private var events: ((EngineEvent) -> Void)?
    package var receiverBytes: ((UnsafeRawBufferPointer) -> Void)?

    /// A source reading `path` at `baudRate`. `power` makes the power strategy for the open
    /// port (a pty or a board without one: ``NoPowerControl``).
    package init(
        path: String, baudRate: Int, kind: PortKind, silenceTimeout: Duration = .seconds(3),
        canPowerDown: Bool = false,
        power: @escaping (any ByteStreamPort) -> any GPSPowerControl = { _ in NoPowerControl() }
    ) {
        var configuration = ReceiverLink.Configuration(path: path, kind: kind, baud: .fixed(baudRate))
        configuration.silenceTimeout = silenceTimeout
        link = ReceiverLink(configuration)
        self.canPowerDown = canPowerDown
        powerControl = power
    }

    package var summary: StatusReport.Source {
        StatusReport.Source(
            kind: "serial", description: "NMEA receiver on \(link.configuration.path)\(link.connection)",
            isSimulated: false)
    }

    package var poweredDownState: ReceiverPowerState? { canPowerDown ? .backup : nil }
    package var hasAccelerometer: Bool { false }

    package func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws {
        self.events = events
        link.handlers.opened = { [unowned self] port in self.power = self.powerControl(port) }
        link.handlers.fix = { [unowned self] fix in self.events?(.fix(fix)) }
        link.handlers.lost = { [unowned self] reason in self.events?(.receiverLost(reason: reason)) }
        if let receiverBytes { link.handlers.bytes = receiverBytes }
        link.start(on: loop)
    }

    package func setReceiverPower(on: Bool, reason: String) {
        do throws(SystemError) {
            if on { try power?.powerUp() } else { try power?.powerDown() }
        } catch {
            link.reportLost("power \(on ? "up" : "down") failed: \(error)")
        }
        link.expectsBytes = on
    }

    package func setAccelerometer(_ command: AccelerometerCommand) {}

    package func stop() {
        link.stop()
        power = nil
        events = nil
    }
}
