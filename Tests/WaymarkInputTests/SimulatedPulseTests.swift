import Testing
import WaymarkEventLoop
import WaymarkInput
import WaymarkReceiver
import WaymarkSimulation
import WaymarkTime
import WaymarkTestFixtures

/// The simulated board's PPS line: raised each UTC second while the receiver is on, and no
/// timer at all while it sleeps (an idle daemon wakes for nothing).
@Suite("The simulated board's PPS line", .ownThread)
struct SimulatedPulseTests {
    @Test("the pulse timer runs only while the receiver is on, and pulses come again after a power cycle")
    func pulsesOnlyWhileOn() throws {
        let scenario = try ScenarioParser.parse("start 2026-11-22T08:00:00Z 47.3769 8.5417 408\ndesk 10m\n", file: "test")
        let loop = try EventLoop()
        let source = SimulatedSource(scenario: scenario, profile: .ubloxM8, seed: 1)
        var pulses = 0
        source.timeEvents = { event in if case .pulse = event { pulses += 1 } }
        try source.start(on: loop, timeline: Timeline(speed: 10)) { _ in }
        defer { source.stop() }
        // Without a time listener, the same board's timers are the baseline.
        let baseline = try EventLoop()
        let untimed = SimulatedSource(scenario: scenario, profile: .ubloxM8, seed: 1)
        try untimed.start(on: baseline, timeline: Timeline(speed: 10)) { _ in }
        defer { untimed.stop() }

        for source in [source, untimed] { source.setReceiverPower(on: true, reason: "test") }
        #expect(loop.pendingTimerCount == baseline.pendingTimerCount + 1)
        try run(loop, for: .milliseconds(350))  // 3.5 s of the scenario at 10×
        #expect(pulses >= 2)

        for source in [source, untimed] { source.setReceiverPower(on: false, reason: "test") }
        #expect(loop.pendingTimerCount == baseline.pendingTimerCount)
        let asleep = pulses
        try run(loop, for: .milliseconds(350))
        #expect(pulses == asleep)

        source.setReceiverPower(on: true, reason: "test")
        try run(loop, for: .milliseconds(350))
        #expect(pulses >= asleep + 2)
    }

    private func run(_ loop: EventLoop, for duration: Duration) throws {
        _ = loop.schedule(after: duration) { $0.stop() }
        try loop.run()
    }
}
