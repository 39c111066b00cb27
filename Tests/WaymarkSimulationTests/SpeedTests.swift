import Testing
import WaymarkClock
import WaymarkSimulation
import WaymarkReceiver
import WaymarkTestFixtures

/// Prints how long an 8-hour desk day takes to simulate; asserts nothing about the clock
/// (timings belong in benchmarks), only that the work was done.
@Suite("Simulation cost", .ownThread)
struct SpeedTests {
    @Test("desk-day: truth every second, every motion interrupt, the oracle's epochs")
    func deskDay() throws {
        let clock = ContinuousClock()
        let scenario = try ScenarioFiles.scenario("desk-day")
        var board = SimulatedBoard(scenario: scenario, profile: .ubloxM8, seed: 1)
        let built = clock.now
        var moving = 0
        for second in 0..<Int(board.trajectory.end.seconds) where board.truth(at: .zero + .seconds(second)).isMoving {
            moving += 1
        }
        let truthDone = clock.now
        var armed = Instant.zero
        var wakes = 0
        let setting = ActivityInterruptSetting(threshold: 150, minimumDuration: .milliseconds(100), outputDataRate: 100)
        while let wake = board.accelerometer.nextActivity(from: armed, before: board.trajectory.end, setting: setting) {
            wakes += 1
            armed = board.trajectory.movingIntervals.first { $0.contains(wake) }?.upperBound ?? board.trajectory.end
        }
        let wakesDone = clock.now
        var bytes = 0
        for interval in board.trajectory.movingIntervals {
            board.receiver.powerOn(at: interval.lowerBound)
            bytes += board.receiver.epochs(until: interval.upperBound).reduce(0) { $0 + $1.bytes.count }
            board.receiver.powerOff(at: interval.upperBound, keepBackup: true)
        }
        let epochsDone = clock.now
        print("""
            desk-day simulation cost: \
            truth ×28,800: \(truthDone - built), \
            motion interrupts (\(wakes)): \(wakesDone - truthDone), \
            oracle epochs (\(bytes) bytes): \(epochsDone - wakesDone)
            """)
        #expect(abs(moving - 3_000) <= 13 && wakes == 13 && bytes > 0)
    }
}
