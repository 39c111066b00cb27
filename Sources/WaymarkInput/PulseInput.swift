import WaymarkClock
import WaymarkDrivers
import WaymarkEventLoop
import WaymarkSystem
import WaymarkTime

/// The receiver's PPS line as a GPIO edge input: each active edge, with the kernel's
/// timestamp (libgpiod's default event clock, `CLOCK_MONOTONIC`) and both clocks read right
/// after the edges are read, which map it to the wall clock.
final class PulseInput {
    private let line: GPIOEdgeInput
    private var loop: EventLoop?
    private let log: (String) -> Void
    /// The most edges kept from one read (the pairer judges them in order).
    static let mostEdgesPerRead = 16

    /// Watches `line` (requested for its rising edges, without debounce).
    init(_ line: GPIOEdgeInput, log: @escaping (String) -> Void) {
        self.line = line
        self.log = log
    }

    /// Reports each edge to `pulse` from now on.
    func start(on loop: EventLoop, pulse: @escaping (TimeEvent) -> Void) throws(SystemError) {
        try loop.register(line.descriptor, for: .readable) { [unowned self] _, _ in
            var edges: [Instant] = []
            do throws(SystemError) {
                try self.line.readEdges { edge in
                    // The kernel queues a few edges per line; a line bouncing faster than a pulse cannot be one.
                    if edge.rising && edges.count < Self.mostEdgesPerRead { edges.append(Instant(nanoseconds: edge.timestamp.nanoseconds)) }
                }
            } catch {
                self.log("reading the PPS line failed, no more PPS: \(error)")
                self.unwatch()
                return
            }
            let clocks = ClockReading.now
            for edge in edges { pulse(.pulse(edge: edge, clocks: clocks)) }
        }
        self.loop = loop
    }

    /// Stops watching and releases the line.
    func stop() {
        unwatch()
        line.release()
    }

    private func unwatch() {
        try? loop?.unregister(line.descriptor)
        loop = nil
    }
}
