import Testing
import WaymarkClock
import WaymarkFix
import WaymarkLocation
import WaymarkReceiver
import WaymarkSimulation

/// The receivers' own orbit prediction (AssistNow Autonomous, EASY) in the simulated receiver:
/// when it exists, what start it gives, and when it is lost.
@Suite("Orbit prediction")
struct OrbitPredictionTests {
    static func at(_ seconds: Double) -> Instant { ReceiverTests.at(seconds) }

    /// Powers a receiver on at 0, takes its start-up message, enables the prediction at
    /// `enableAt` (if any) and powers it down into `down` at `offAt`; then powers it on again
    /// `stillness` later and returns that start.
    static func start(
        _ profile: ReceiverProfile, enableAt: Double? = 1, offAt: Double = 120, down: ReceiverPowerState = .backup,
        stillness: Duration
    ) throws -> ReceiverStart {
        var receiver = try ReceiverTests.receiver(profile)
        receiver.powerOn(at: at(0))
        _ = receiver.nextEpoch(before: at(1))  // the start-up message: the receiver now hears commands
        if let enableAt { receiver.enableOrbitPrediction(at: at(enableAt)) }
        if down == .standby {
            receiver.standby(at: at(offAt))
        } else {
            receiver.powerOff(at: at(offAt), keepBackup: down == .backup)
        }
        receiver.powerOn(at: at(offAt) + stillness)
        return try #require(receiver.starts.last)
    }

    @Test("a night in backup or standby: a predicted start, as fast as a hot one", arguments: ReceiverProfile.all)
    func afterANight(profile: ReceiverProfile) throws {
        for down in [ReceiverPowerState.backup, .standby] {
            let start = try Self.start(profile, down: down, stillness: .seconds(7 * 3_600))
            #expect(start.kind == .predicted)
            #expect(start.timeToFirstFix <= profile.hotStart * 1.2 + .seconds(1))
        }
    }

    @Test("without the command, the same night ends in a warm start", arguments: ReceiverProfile.all)
    func notEnabled(profile: ReceiverProfile) throws {
        let start = try Self.start(profile, enableAt: nil, stillness: .seconds(7 * 3_600))
        #expect(start.kind == .warm)
        #expect(start.timeToFirstFix >= profile.warmStart * 0.9)
    }

    @Test("a command before the start-up message is not heard")
    func commandWhileBooting() throws {
        var receiver = try ReceiverTests.receiver(.quectelL76)
        receiver.powerOn(at: Self.at(0))
        receiver.enableOrbitPrediction(at: Self.at(0.2))
        receiver.powerOff(at: Self.at(120), keepBackup: true)
        receiver.powerOn(at: Self.at(120 + 7 * 3_600))
        #expect(receiver.starts.last?.kind == .warm)
    }

    @Test("too short a tracking stretch computes nothing; the prediction lasts three days; all power lost forgets it")
    func conditions() throws {
        let profile = ReceiverProfile.mediatekMT3339
        var probe = try ReceiverTests.receiver(profile)
        probe.powerOn(at: Self.at(0))
        let firstFix = try #require(probe.starts.first).firstFix.seconds
        // Powered down 10 s after the first fix: the ephemeris was not decoded, nothing predicted.
        #expect(try Self.start(profile, offAt: firstFix + 10, stillness: .seconds(7 * 3_600)).kind == .warm)
        #expect(try Self.start(profile, offAt: firstFix + 31, stillness: .seconds(7 * 3_600)).kind == .predicted)
        let days = 24 * 3_600.0
        #expect(try Self.start(profile, stillness: .seconds(2.9 * days)).kind == .predicted)
        #expect(try Self.start(profile, stillness: .seconds(3.1 * days)).kind == .warm)
        #expect(try Self.start(profile, down: .off, stillness: .seconds(7 * 3_600)).kind == .cold)
    }

    @Test("fixes from predicted orbits are less accurate until the broadcast ephemeris is decoded")
    func accuracy() throws {
        let profile = ReceiverProfile.ubloxM8
        var errors: [(predicted: Double, broadcast: Double)] = []
        for seed: UInt64 in 1...12 {
            var receiver = try ReceiverTests.receiver(profile, seed: seed)
            receiver.powerOn(at: Self.at(0))
            _ = receiver.nextEpoch(before: Self.at(1))
            receiver.enableOrbitPrediction(at: Self.at(1))
            receiver.powerOff(at: Self.at(120), keepBackup: true)
            let on = Self.at(120 + 7 * 3_600)
            receiver.powerOn(at: on)
            let start = try #require(receiver.starts.last)
            #expect(start.kind == .predicted)
            let fixes = ReceiverTests.decode(receiver.epochs(until: start.firstFix + .seconds(60)))
                .filter { $0.latitude != nil }
            let mean = { (fixes: [Fix]) in
                fixes.map { ReceiverTests.error($0, receiver.trajectory.truth(at: start.firstFix)) }.reduce(0, +) / Double(max(fixes.count, 1))
            }
            errors.append((mean(Array(fixes.prefix(5))), mean(Array(fixes.suffix(5)))))
        }
        let predicted = errors.map(\.predicted).reduce(0, +)
        let broadcast = errors.map(\.broadcast).reduce(0, +)
        #expect(predicted > 1.5 * broadcast)
    }
}
