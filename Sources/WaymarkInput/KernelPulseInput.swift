import WaymarkClock
import WaymarkDrivers
import WaymarkEventLoop
import WaymarkSystem
import WaymarkTime

/// The receiver's PPS as a kernel PPS source (the board file's `[pps] device`, `/dev/ppsN`):
/// its newest assert edge fetched on a timer without waiting, paced by ``KernelPulsePoller``
/// (about one fetch a second, just after the expected edge), while the receiver is on. Each
/// new edge goes out with the clocks read right after the fetch, which map the kernel's
/// wall-clock stamp to the monotonic timeline and back.
final class KernelPulseInput {
    private let device: KernelPPSDevice
    private var poller = KernelPulsePoller()
    private var loop: EventLoop?
    private var timer: TimerID?
    private var pulse: ((TimeEvent) -> Void)?
    private let log: (String) -> Void

    /// Reads `device`.
    init(_ device: KernelPPSDevice, log: @escaping (String) -> Void) {
        self.device = device
        self.log = log
    }

    /// Reports each new edge to `pulse` while ``isActive``.
    func start(on loop: EventLoop, pulse: @escaping (TimeEvent) -> Void) {
        self.loop = loop
        self.pulse = pulse
    }

    /// Whether the receiver is on and its pulses are fetched: no fetch (no wakeup) while off.
    var isActive = false {
        didSet {
            guard isActive != oldValue else { return }
            if isActive { fetch() } else { cancelTimer() }
        }
    }

    /// Stops fetching and closes the device.
    func stop() {
        cancelTimer()
        loop = nil
        device.close()
    }

    private func fetch() {
        guard let loop, isActive else { return }
        let found: (sequence: UInt32, seconds: Int64, nanoseconds: Int32)
        do throws(SystemError) {
            found = try device.fetchAssert()
        } catch {
            log("reading \(device.path) failed, no more PPS: \(error)")
            self.loop = nil
            return
        }
        let clocks = ClockReading.now
        let (edge, next) = poller.fetched(sequence: found.sequence, seconds: found.seconds, nanoseconds: found.nanoseconds, clocks: clocks)
        timer = loop.schedule(at: MonotonicInstant(nanoseconds: next.nanoseconds)) { [unowned self] _ in
            self.timer = nil
            self.fetch()
        }
        if let edge { pulse?(.pulse(edge: edge, clocks: clocks)) }
    }

    private func cancelTimer() {
        if let timer { loop?.cancel(timer) }
        timer = nil
    }
}
