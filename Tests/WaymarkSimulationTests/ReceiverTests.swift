import WaymarkFix
import WaymarkReceiver
import Foundation
import Testing
import WaymarkClock
import WaymarkLocation
import WaymarkNMEA
import WaymarkSimulation

@Suite("Receiver model")
struct ReceiverTests {
    static func receiver(_ profile: ReceiverProfile = .ubloxM8, seed: UInt64 = 1, baudRate: Int = 115_200) throws -> SimulatedReceiver {
        let trajectory = Trajectory(scenario: try ScenarioFiles.scenario("desk-day"), seed: seed)
        return SimulatedReceiver(profile: profile, trajectory: trajectory, seed: seed, baudRate: baudRate)
    }

    static func at(_ seconds: Double) -> Instant { .zero + .seconds(seconds) }

    /// Decodes epochs with the real framer, parser and epoch assembler.
    static func decode(_ epochs: [(instant: Instant, bytes: [UInt8])]) -> [Fix] {
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        for epoch in epochs {
            epoch.bytes.withUnsafeBufferPointer { decoder.decode($0) { fixes.append($0) } }
        }
        decoder.finish { fixes.append($0) }
        return fixes
    }

    /// Horizontal distance between a fix and the truth, metres (local flat earth).
    static func error(_ fix: Fix, _ truth: Truth) -> Double {
        let north = (fix.latitude! - truth.position.latitude) * 111_195
        let east = (fix.longitude! - truth.position.longitude) * 111_195 * cos(truth.position.latitude * .pi / 180)
        return (north * north + east * east).squareRoot()
    }

    @Test("start kinds: cold first, hot after 1 h off with backup, warm after 5 h, cold without backup")
    func startKinds() throws {
        var receiver = try Self.receiver()
        receiver.powerOn(at: Self.at(0))
        receiver.powerOff(at: Self.at(120), keepBackup: true)
        receiver.powerOn(at: Self.at(120 + 3_600))
        receiver.powerOff(at: Self.at(3_780), keepBackup: true)
        receiver.standby(at: Self.at(3_790))
        receiver.powerOn(at: Self.at(3_780 + 5 * 3_600))
        receiver.powerOff(at: Self.at(22_000), keepBackup: false)
        receiver.powerOn(at: Self.at(22_100))
        #expect(receiver.starts.map(\.kind) == [.cold, .hot, .warm, .cold])
        let ttff = receiver.starts.map(\.timeToFirstFix)
        // Nominal 26 s, 1 s, 25 s, 26 s, each × 0.9–1.2 and then the next whole second.
        #expect(ttff[0] >= .seconds(23) && ttff[0] <= .seconds(33))
        #expect(ttff[1] >= .seconds(1) && ttff[1] <= .seconds(2))
        #expect(ttff[2] >= .seconds(22) && ttff[2] <= .seconds(31))
        #expect(ttff[3] >= .seconds(23) && ttff[3] <= .seconds(33))
    }

    @Test("ephemeris validity: 4 h for u-blox, 2 h for MediaTek and Quectel", arguments: ReceiverProfile.all)
    func ephemeris(profile: ReceiverProfile) throws {
        var receiver = try Self.receiver(profile)
        receiver.powerOn(at: Self.at(0))
        receiver.powerOff(at: Self.at(100), keepBackup: true)
        receiver.powerOn(at: Self.at(100 + 3 * 3_600))
        let expected: StartKind = profile.name == "ublox-m8" ? .hot : .warm
        #expect(receiver.starts.last?.kind == expected)
    }

    @Test("a cold start: no-fix epochs (first without time), then fixes near the truth, through the real parser", arguments: ReceiverProfile.all)
    func coldStartDecodes(profile: ReceiverProfile) throws {
        var receiver = try Self.receiver(profile)
        let walkStart = 3 * 3_600.0
        receiver.powerOn(at: Self.at(walkStart - 45))
        let outputs = receiver.epochs(until: Self.at(walkStart + 300))
        #expect(outputs.first?.bytes == profile.startupMessage)
        let epochs = Array(outputs.dropFirst())
        #expect(epochs.count == 344)  // measurements from 44 s before to 299 s after
        let fixes = Self.decode(epochs)
        let firstFix = try #require(receiver.starts.first?.firstFix)
        let withoutFix = fixes.filter { !$0.hasPosition }
        let withFix = fixes.filter(\.hasPosition)
        #expect(!withoutFix.isEmpty && withoutFix.allSatisfy { $0.mode == .noFix })
        // A cold start does not know the time at first: those epochs carry none and are not emitted.
        #expect(fixes.count < 344 && withFix.count == Int((Self.at(walkStart + 300) - firstFix).seconds))
        let start = receiver.trajectory.scenario.startTime
        for fix in withFix {
            let instant = Instant.zero + .nanoseconds(try #require(fix.time).nanosecondsSinceEpoch - start.nanosecondsSinceEpoch)
            let truth = receiver.trajectory.truth(at: instant)
            #expect(Self.error(fix, truth) < 12, "\(fix) vs \(truth)")
            #expect(abs(fix.speed! - truth.speed) < 0.5)
            #expect(fix.mode == .threeDimensional && fix.satellitesUsed ?? 0 >= 4)
            #expect(abs(fix.altitudeMSL! - truth.position.altitude) < 20)
        }
        let walking = withFix.filter { ($0.speed ?? 0) > 1 }
        #expect(walking.count > 250)
        #expect(walking.allSatisfy { abs(($0.course ?? -99) - 40) < 15 })
    }

    @Test("u-blox sentence order: RMC, VTG, GGA, GSA ×2, GPGSV…, GLGSV…, GLL")
    func sentenceOrder() throws {
        var receiver = try Self.receiver()
        receiver.powerOn(at: Self.at(0))
        let epochs = receiver.epochs(until: Self.at(40))
        let text = String(decoding: try #require(epochs.last).bytes, as: UTF8.self)
        let types = text.split(separator: "\r\n").map { String($0.dropFirst().prefix(5)) }
        #expect(types.prefix(5) == ["GNRMC", "GNVTG", "GNGGA", "GNGSA", "GNGSA"])
        #expect(types.last == "GNGLL")
        let views = types.dropFirst(5).dropLast()
        #expect(views.allSatisfy { $0 == "GPGSV" || $0 == "GLGSV" } && views.first == "GPGSV" && views.last == "GLGSV")
        #expect(String(decoding: epochs[0].bytes, as: UTF8.self).hasPrefix("$GNTXT,01,01,02,u-blox AG"))
        let noFix = String(decoding: epochs[1].bytes, as: UTF8.self)
        #expect(noFix.hasPrefix("$GNRMC,,V,,,,,,,,,,N*"))
    }

    @Test("MediaTek order: GPGGA, GPGSA, GPGSV…, GPRMC, GPVTG; the assembler emits on the VTG")
    func mediatekOrder() throws {
        var receiver = try Self.receiver(.mediatekMT3339)
        receiver.powerOn(at: Self.at(0))
        let epochs = receiver.epochs(until: Self.at(60))
        let text = String(decoding: try #require(epochs.last).bytes, as: UTF8.self)
        let types = text.split(separator: "\r\n").map { String($0.dropFirst().prefix(5)) }
        #expect(types.first == "GPGGA" && types[1] == "GPGSA" && types.suffix(2) == ["GPRMC", "GPVTG"])
        var decoder = NMEADecoder()
        for epoch in epochs { epoch.bytes.withUnsafeBufferPointer { decoder.decode($0) { _ in } } }
        #expect(decoder.assembler.statistics.emittedOnCycleEnd > 10)
    }

    @Test("epochs leave at the second + 50 ms + their bytes on the UART; too slow a UART drops sentences")
    func uartTiming() throws {
        var fast = try Self.receiver(baudRate: 115_200)
        fast.powerOn(at: Self.at(0))
        for epoch in fast.epochs(until: Self.at(60)).dropFirst() {
            let onWire = Duration.nanoseconds(Int64(epoch.bytes.count) * 10 * 1_000_000_000 / 115_200)
            #expect(epoch.instant.nanoseconds % 1_000_000_000 == (Duration.milliseconds(50) + onWire).nanoseconds)
        }
        #expect(fast.droppedSentences == 0)
        var slow = try Self.receiver(baudRate: 4_800)
        slow.powerOn(at: Self.at(0))
        let epochs = slow.epochs(until: Self.at(60))
        #expect(slow.droppedSentences > 0 && epochs.allSatisfy { $0.bytes.count <= 480 })
    }

    @Test("with GST enabled, fixes carry the receiver's own error estimates and the epoch still ends on GLL")
    func statistics() throws {
        var profile = try #require(ReceiverProfile.named("ublox-m8"))
        profile.emitsGST = true
        var receiver = try Self.receiver(profile)
        receiver.powerOn(at: Self.at(0))
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        for epoch in receiver.epochs(until: Self.at(60)) {
            epoch.bytes.withUnsafeBufferPointer { decoder.decode($0) { fixes.append($0) } }
        }
        let fix = try #require(fixes.last)
        #expect(fix.hasPosition && fix.latitudeError != nil && fix.altitudeError != nil)
        #expect(fix.latitudeError! > 1 && fix.latitudeError! < 4)
        #expect(decoder.assembler.statistics.lateSentences == 0)
    }

    @Test("time in each state and its energy")
    func ledger() throws {
        var receiver = try Self.receiver()
        receiver.powerOn(at: Self.at(0))
        let fix = try #require(receiver.starts.first?.firstFix)
        #expect(receiver.state(at: fix - .nanoseconds(1)) == .acquiring && receiver.state(at: fix) == .tracking)
        receiver.powerOff(at: Self.at(3_600), keepBackup: true)
        #expect(receiver.state(at: Self.at(4_000)) == .backup)
        let ledger = receiver.ledger(at: Self.at(7_200))
        #expect(ledger.time(in: .acquiring) == fix - Instant.zero)
        #expect(ledger.time(in: .tracking) == Self.at(3_600) - fix)
        #expect(ledger.time(in: .backup) == .seconds(3_600))
        let acquiring = (fix - Instant.zero).seconds
        let expected = 3.0 * (32 * acquiring + 29 * (3_600 - acquiring) + 0.015 * 3_600) / 3_600
        #expect(abs(ledger.energy - expected) < 1e-9)
        #expect(ReceiverProfile.mediatekMT3339.current(in: .standby) == 2)
        #expect(ReceiverProfile.quectelL76.current(in: .standby) == 0.6)
    }

    @Test("start-up: the banner 0.5 s after power-on, the answer to the wake command 50 ms after a standby wake; both checksummed", arguments: ReceiverProfile.all)
    func startupMessages(profile: ReceiverProfile) throws {
        var receiver = try Self.receiver(profile)
        receiver.powerOn(at: Self.at(100))
        let booted = receiver.nextEpoch(before: Self.at(200))
        let boot = try #require(booted)
        #expect(boot.bytes == profile.startupMessage)
        #expect(boot.instant == Self.at(100.5) + .nanoseconds(Int64(boot.bytes.count) * 10 * 1_000_000_000 / 115_200))
        let firstEpoch = receiver.nextEpoch(before: Self.at(200))
        #expect(firstEpoch.map { $0.instant > Self.at(101) } == true)
        receiver.standby(at: Self.at(150))
        receiver.powerOn(at: Self.at(160))
        let answered = receiver.nextEpoch(before: Self.at(200))
        let answer = try #require(answered)
        #expect(String(decoding: answer.bytes, as: UTF8.self) == "$PMTK001,0,3*30\r\n")
        #expect(answer.instant < Self.at(160.06))
        var decoder = NMEADecoder()
        for bytes in [boot.bytes, answer.bytes] { bytes.withUnsafeBufferPointer { decoder.decode($0) { _ in } } }
        #expect(decoder.framer.statistics.rejected == 0 && decoder.framer.statistics.sentences == 3)
    }

    @Test("a faster measurement interval: not heard while booting, then epochs on its grid; the first fix of a hot start moves up")
    func measurementInterval() throws {
        var receiver = try Self.receiver()
        receiver.powerOn(at: Self.at(0))
        receiver.powerOff(at: Self.at(120), keepBackup: true)
        let wake = Self.at(3_600.3)
        receiver.powerOn(at: wake)
        let atOneHertz = try #require(receiver.starts.last).firstFix
        receiver.setMeasurementInterval(.milliseconds(200), at: wake + .milliseconds(100))  // still booting
        #expect(receiver.measurementInterval == .seconds(1))
        let booted = receiver.nextEpoch(before: wake + .seconds(1))
        let boot = try #require(booted)
        receiver.setMeasurementInterval(.milliseconds(200), at: boot.instant)
        #expect(receiver.measurementInterval == .milliseconds(200))
        let start = try #require(receiver.starts.last)
        #expect(start.kind == .hot && start.firstFix <= atOneHertz && start.firstFix.nanoseconds % 200_000_000 == 0)
        #expect(start.timeToFirstFix <= .milliseconds(1_000))
        let epochs = receiver.epochs(until: wake + .seconds(3))
        let measurements = epochs.map { ($0.instant.nanoseconds - 50_000_000) / 200_000_000 }
        #expect(epochs.count >= 11 && zip(measurements, measurements.dropFirst()).allSatisfy { $1 == $0 + 1 })
        let fixes = Self.decode(epochs).filter(\.hasPosition)
        #expect(fixes.count == epochs.filter { $0.instant > start.firstFix }.count)
        // Back to one a second: the epoch measured at 3,603.2 s is still on the wire and goes
        // out; the next measurement is the next whole second.
        let now = wake + .seconds(3)
        receiver.setMeasurementInterval(.seconds(1), at: now)
        let following = receiver.epochs(until: now + .seconds(1.5)).map(\.instant)
        #expect(following.count == 2 && following[0] < Self.at(3_603.4))
        #expect(following[1] > Self.at(3_604) && following[1] < Self.at(3_604.2))
        #expect(receiver.droppedSentences == 0)
    }

    @Test("the same seed gives the same bytes; another seed other bytes")
    func determinism() throws {
        func run(_ seed: UInt64) throws -> [[UInt8]] {
            var receiver = try Self.receiver(seed: seed)
            receiver.powerOn(at: Self.at(10_790))
            return receiver.epochs(until: Self.at(11_000)).map(\.bytes)
        }
        #expect(try run(5) == run(5))
        #expect(try run(5) != run(6))
    }
}
