import Testing
import WaymarkClock
import WaymarkSimulation
import WaymarkReceiver

@Suite("Simulated board")
struct BoardTests {
    @Test("desk-day energy with the u-blox M8: always on ≈ 696 mWh, oracle (on exactly while moving) ≈ 73 mWh")
    func deskDayBaselines() throws {
        let scenario = try ScenarioFiles.scenario("desk-day")
        var alwaysOn = SimulatedBoard(scenario: scenario, profile: .ubloxM8, seed: 1)
        alwaysOn.receiver.powerOn(at: .zero)
        let always = alwaysOn.receiver.ledger(at: alwaysOn.trajectory.end).energy
        var oracle = SimulatedBoard(scenario: scenario, profile: .ubloxM8, seed: 1)
        var epochs = 0
        for interval in oracle.trajectory.movingIntervals {
            oracle.receiver.powerOn(at: interval.lowerBound)
            epochs += oracle.receiver.epochs(until: interval.upperBound).count
            oracle.receiver.powerOff(at: interval.upperBound, keepBackup: true)
        }
        let ledger = oracle.receiver.ledger(at: oracle.trajectory.end)
        print("desk-day, u-blox M8: always on \(always) mWh, oracle \(ledger.energy) mWh, \(epochs) epochs, starts \(oracle.receiver.starts.map(\.kind.rawValue))")
        #expect(abs(always - 696) < 1)
        #expect(abs(ledger.energy - 73) < 2)
        #expect(oracle.receiver.starts.dropFirst().allSatisfy { $0.kind == .hot })
        #expect(ledger.time(in: .acquiring) + ledger.time(in: .tracking) == oracle.trajectory.movingTime)
    }

    @Test("events come in time order: the activity interrupt while the receiver is off, then epochs")
    func events() throws {
        var board = SimulatedBoard(scenario: try ScenarioFiles.scenario("demo"), profile: .ubloxM8, seed: 1)
        board.armActivity(ActivityInterruptSetting(threshold: 150, minimumDuration: .milliseconds(100), outputDataRate: 100), at: .zero)
        let limit = board.trajectory.end
        let first = board.next(before: limit)
        guard case .activity(let wake) = first else {
            Issue.record("expected the activity interrupt first")
            return
        }
        let walkStart = board.trajectory.motionStarts[0]
        #expect(wake >= walkStart && wake - walkStart < .milliseconds(200))
        #expect(board.activitySetting == nil)
        board.receiver.powerOn(at: wake)
        board.armActivity(ActivityInterruptSetting(threshold: 150, minimumDuration: .zero, outputDataRate: 100), at: wake)
        var last = wake
        var kinds: [String] = []
        while let event = board.next(before: wake + .seconds(5)) {
            #expect(event.instant >= last)
            last = event.instant
            if case .activity = event { kinds.append("activity") } else { kinds.append("nmea") }
        }
        // The start-up message, then five epochs.
        #expect(kinds.first == "activity" && kinds.filter { $0 == "nmea" }.count == 6)
        #expect(board.truth(at: wake + .seconds(1)).isMoving)
    }

    @Test("the armed interrupt is looked for a stretch at a time, and found where one search to the scenario's end finds it", arguments: [
        ActivityInterruptSetting(threshold: 60, minimumDuration: .zero, outputDataRate: 12.5),
        ActivityInterruptSetting(threshold: 150, minimumDuration: .milliseconds(100), outputDataRate: 100),
        ActivityInterruptSetting(threshold: 40, minimumDuration: .milliseconds(300), outputDataRate: 50),
    ])
    func activityStretches(setting: ActivityInterruptSetting) throws {
        for name in ["desk-day", "gentle-drive", "tower"] {
            var board = SimulatedBoard(scenario: try ScenarioFiles.scenario(name), profile: .ubloxM8, seed: 2)
            var armed = Instant.zero
            var found: [Instant] = []
            var asked = 0
            while armed < board.trajectory.end {
                let expected = board.accelerometer.nextActivity(from: armed, before: board.trajectory.end, setting: setting)
                board.armActivity(setting, at: armed)
                // Asked at its own horizons, as a run's loop does, until the interrupt fires.
                var answer: Instant?
                while answer == nil, let next = board.nextEventInstant, next < board.trajectory.end {
                    asked += 1
                    if case .activity(let instant) = board.next(before: next + .nanoseconds(1)) { answer = instant }
                }
                #expect(answer == expected, "\(name), armed at \(armed)")
                guard let fired = expected else { break }
                found.append(fired)
                armed = fired + .seconds(1)
            }
            #expect(found.count > 3, "\(name): too few interrupts to compare")
            #expect(asked > found.count, "\(name): the search went stretch by stretch")
        }
    }
}
