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
                // At most GPIOEdgeInput.maximumEdgesPerRead: the pairer judges them in order.
                try self.line.readEdges { edge in
                    if edge.rising { edges.append(Instant(nanoseconds: edge.timestamp.nanoseconds)) }
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
