import Foundation
import Testing
import Waymark
import WaymarkLocation

extension ClientLibraryTests.WaymarkdTests {
    /// The receiver's power states in which it is on.
    static let navigating: Set<String> = ["acquiring", "tracking"]

    @Test("lastKnownLocation: none before the first fix; then the newest location, its age growing with the daemon's clock; asking never powers the receiver")
    func lastKnownLocation() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("walk 60s\ndesk 1h\n"), "--speed", "4"])
        defer { daemon.stop() }
        for _ in 0..<3 { #expect(try await WaymarkAgent.lastKnownLocation() == nil) }
        let idle = try await WaymarkAgent.status()
        #expect(idle.transitions == 0 && !Self.navigating.contains(idle.receiverPowerState))

        let requested = try await within(30) { try await Location.requestLocation(timeout: .seconds(20)) }
        // Once the receiver is down again, the location stays what it was and only ages.
        var status = try await WaymarkAgent.status()
        for _ in 0..<200 where Self.navigating.contains(status.receiverPowerState) {
            try await Task.sleep(for: .milliseconds(100))
            status = try await WaymarkAgent.status()
        }
        // The daemon computes each age between its request's sending and its reply's arrival:
        // the clock starts before the first is sent, or the first reply's way back is missed.
        let started = ContinuousClock.now
        let first = try #require(try await WaymarkAgent.lastKnownLocation())
        try await Task.sleep(for: .seconds(1))
        let second = try #require(try await WaymarkAgent.lastKnownLocation())
        let elapsed = ContinuousClock.now - started
        #expect(first.location.timestamp.nanosecondsSinceEpoch >= requested.timestamp.nanosecondsSinceEpoch)
        #expect(second.location == first.location)
        // Four daemon seconds a second (--speed 4): at least the 4 s slept, no more than the
        // time between the two answers allows.
        let aged = second.age - first.age
        #expect(aged >= .seconds(4) && aged <= elapsed * 4, "aged \(aged) in \(elapsed)")
        let after = try await WaymarkAgent.status()
        #expect(after.transitions == status.transitions, "asking powered the receiver")
    }
}
