import Testing
import WaymarkClock
import WaymarkFix
import WaymarkLocation
import WaymarkReceiver
import WaymarkSimulation

@Suite("No satellite signal in a lift")
struct SignalBlockTests {
    /// Two minutes still, a 40 s lift (ride centred, waits before and after), a minute's walk.
    static func trajectory() throws -> Trajectory {
        let text = "start 2026-11-23T08:00:00Z 47 8 400\nstill 2m\nlift 40s up=15m\nwalk 1m heading=90"
        return Trajectory(scenario: try ScenarioParser.parse(text, file: "lift"), seed: 1)
    }

    static func at(_ seconds: Double) -> Instant { .zero + .seconds(seconds) }

    /// Seconds since the scenario's start of every fix with a position.
    static func fixSeconds(_ receiver: inout SimulatedReceiver, until seconds: Double) -> [Double] {
        let start = receiver.trajectory.utc(at: .zero).secondsSinceEpoch
        return ReceiverTests.decode(receiver.epochs(until: at(seconds)))
            .filter { $0.latitude != nil }
            .compactMap { $0.time.map { $0.secondsSinceEpoch - start } }
    }

    @Test("the whole lift segment is signal-blocked; the ride is movement no receiver can fix, the walk out is fixable")
    func intervals() throws {
        let trajectory = try Self.trajectory()
        #expect(trajectory.signalBlockedIntervals == [Self.at(120)..<Self.at(160)])
        #expect(trajectory.movingIntervals.count == 2)
        #expect(trajectory.fixableMovingIntervals == [Self.at(160)..<Self.at(220)])
        #expect(trajectory.fixableMotionStarts == [Self.at(160)])
        #expect(trajectory.signalReturn(atOrAfter: Self.at(130)) == Self.at(160))
        #expect(trajectory.signalReturn(atOrAfter: Self.at(60)) == Self.at(60))
        #expect(trajectory.signalReturn(atOrAfter: Self.at(160)) == Self.at(160))
    }

    @Test("a receiver tracking into a lift loses its fixes there and has them again a reacquisition after the doors", arguments: ReceiverProfile.all)
    func trackingThroughALift(profile: ReceiverProfile) throws {
        let trajectory = try Self.trajectory()
        var receiver = SimulatedReceiver(profile: profile, trajectory: trajectory, seed: 1)
        receiver.powerOn(at: .zero)
        let seconds = Self.fixSeconds(&receiver, until: 220)
        #expect(seconds.contains { $0 < 120 })
        #expect(!seconds.contains { $0 >= 120 && $0 < 160 + profile.reacquisitionTime.seconds })
        let back = try #require(seconds.first { $0 >= 160 })
        #expect(back <= 160 + profile.reacquisitionTime.seconds + 1)
    }

    @Test("a receiver powered in a lift acquires only once the signal returns", arguments: ReceiverProfile.all)
    func poweredInALift(profile: ReceiverProfile) throws {
        let trajectory = try Self.trajectory()
        var receiver = SimulatedReceiver(profile: profile, trajectory: trajectory, seed: 1)
        receiver.powerOn(at: .zero)
        _ = receiver.epochs(until: Self.at(100))
        receiver.powerOff(at: Self.at(100), keepBackup: true)
        receiver.powerOn(at: Self.at(130))
        #expect(receiver.starts.last?.kind == .hot)
        #expect(receiver.state(at: Self.at(159)) == .acquiring)
        let firstFix = try #require(receiver.starts.last?.firstFix)
        #expect(firstFix > Self.at(160) && firstFix <= Self.at(160) + profile.hotStart * 1.2)
        let seconds = Self.fixSeconds(&receiver, until: 200)
        #expect(seconds.first.map { $0 > 160 } == true)
    }
}
