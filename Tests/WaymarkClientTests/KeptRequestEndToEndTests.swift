import Foundation
import Testing
import Waymark
import WaymarkLocation

/// Pending `requestLocation`s kept for an app that dies (docs/semantics.md, "Consumers that
/// come and go"), with the real waymarkd and `waymark request` as the app: every run of it is
/// the same app (its executable and uid).
extension ClientLibraryTests.WaymarkdTests {
    /// `waymark request --json` asking `accuracy` within `timeout` seconds.
    final class Requester {
        private let process = Process()
        private let output = Pipe()

        init(accuracy: Double = 0, timeout: Double = 60) throws {
            process.executableURL = DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark")
            process.arguments = ["request", "--json", "--accuracy", "\(accuracy)", "--timeout", "\(timeout)"]
            var environment = ProcessInfo.processInfo.environment
            environment["WAYMARK_SOCKET"] = DaemonProcess.socket
            process.environment = environment
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Kills it with SIGKILL and waits for it to end.
        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// The location it printed, once it ended (nil if it printed none).
        func location() -> [String: Any]? {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
    }

    /// Polls the daemon's status until `condition` holds (at most `seconds`); returns the last one.
    @discardableResult
    func status(within seconds: Double = 10, until condition: (StatusReport) -> Bool) async throws -> StatusReport {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var status = try await WaymarkAgent.status()
        while !condition(status), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            status = try await WaymarkAgent.status()
        }
        return status
    }

    /// The daemon on a walk `speed` times faster than real time, and a `waymark request` that
    /// was killed with SIGKILL once the daemon had its request; when (monotonic, and seconds
    /// since the Unix epoch, as the daemon's transitions are dated).
    func walkWithARequestKilled(speed: Int) async throws -> (DaemonProcess, killed: ContinuousClock.Instant, killedAt: Double) {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("walk 600s\n"), "--speed", "\(speed)"])
        let requester = try Requester()
        guard try await status(until: { $0.pendingRequests == 1 }).pendingRequests == 1 else {
            daemon.stop()
            throw DaemonError.didNotStart("the daemon never had the request")
        }
        let killed = (ContinuousClock.now, Date().timeIntervalSince1970)
        requester.kill()
        return (daemon, killed.0, killed.1)
    }

    @Test("an app killed with SIGKILL with a request pending and restarted re-takes the request and gets its answer; the receiver is not cycled")
    func requestKilledAndRestarted() async throws {
        // The daemon's first power-up is a cold start, 26 to 30 s of the scenario: 13 to 15 s here.
        let (daemon, _, _) = try await walkWithARequestKilled(speed: 2)
        defer { daemon.stop() }
        try await Task.sleep(for: .milliseconds(500))
        let away = try await WaymarkAgent.status()
        #expect(away.pendingRequests == 1)
        #expect(away.sessions.keptRequests == 1)
        #expect(away.receiverPowerState == "acquiring")

        let second = try Requester()
        let location = try #require(second.location())
        #expect(location["latitude"] is Double)
        let after = try await status { $0.pendingRequests == 0 }
        #expect(after.pendingRequests == 0)
        #expect(after.sessions.keptRequests == 0)
        // One acquisition from the first request to the answer: never interrupted by a power-down.
        let interrupted = after.recentTransitions.filter { $0.from == "acquiring" && ["off", "backup", "standby"].contains($0.to) }
        #expect(interrupted.isEmpty, "\(after.recentTransitions)")
        #expect(after.recentTransitions.filter { $0.to == "acquiring" }.count == 1, "\(after.recentTransitions)")
    }

    @Test("an app killed with a request pending that does not come back has it ended after the window; the receiver is released")
    func requestKilledAndGone() async throws {
        // A cold start of 26 to 30 s at real speed: the window ends long before a fix could.
        let (daemon, killed, killedAt) = try await walkWithARequestKilled(speed: 1)
        defer { daemon.stop() }
        let ended = try await status(within: 20) { $0.pendingRequests == 0 }
        #expect(ended.pendingRequests == 0)
        let kept = ContinuousClock.now - killed
        // Kept for the window, 5 s from the disconnect (no sooner: load only makes it later).
        #expect(kept >= .seconds(4.5) && kept < .seconds(20), "kept \(kept)")
        #expect(ended.sessions.keptRequests == 0)
        let released = try await status { !["acquiring", "tracking"].contains($0.receiverPowerState) }
        #expect(!["acquiring", "tracking"].contains(released.receiverPowerState))
        let powerDown = try #require(released.recentTransitions.first { $0.from == "acquiring" })
        #expect(powerDown.time - killedAt >= 4.5, "\(released.recentTransitions)")
    }
}

extension AuthorizationEndToEndTests {
    @Test("a request left pending and re-taken is answered as the app may see it now: the cell for a reduced app; authorizationDenied for one denied meanwhile, its kept request ended")
    func keptRequestsObeyAuthorization() throws {
        // Slowed to twice real time: the cold start (13 to 15 s here) outlasts the apps' deaths.
        let board = try AuthorizedBoard(policies: Self.policies, speed: 2)
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.reduced", "--accuracy", "reduced")
        try board.auth("grant", "appID:org.example.denied")
        let asked: [String: Any] = ["desiredAccuracy": 0, "timeout": 60]
        for (uid, appID) in [(uid_t(1002), "org.example.reduced"), (1003, "org.example.denied")] {
            let app = try board.app(uid: uid, appID: appID)
            try app.send("requestLocation", asked)
            // The daemon has read the request once the status after it is answered.
            _ = try app.result("status")
            app.kill()
        }
        #expect(try keptRequests(board, becoming: 2) == 2)
        try board.auth("deny", "appID:org.example.denied")

        let denied = try board.app(uid: 1003, appID: "org.example.denied")
        #expect(try denied.errorCode("requestLocation", asked) == "authorizationDenied")
        // Ended at once: only the reduced app's is kept.
        #expect(try keptRequests(board, becoming: 1) == 1)

        let reduced = try board.app(uid: 1002, appID: "org.example.reduced")
        // Its answer comes with the cold start's first fixes, 13 to 15 s after the first ask.
        let id = try reduced.send("requestLocation", asked)
        let reply = try reduced.next(within: 30) { $0["id"] as? Int == id }
        let location = try #require((reply["result"] as? [String: Any])?["location"] as? [String: Any])
        #expect(try #require(location["horizontalAccuracy"] as? Double) > 2_500)
        #expect(try keptRequests(board, becoming: 0) == 0)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(board.waymark(["status", "--json"]).utf8)) as? [String: Any])
        #expect(status["pendingRequests"] as? Int == 0)
    }

    /// The kept requests the operator sees in `waymark status --json`, once they are
    /// `expected` (or after 5 s: the daemon learns of a death on its next turn).
    private func keptRequests(_ board: AuthorizedBoard, becoming expected: Int) throws -> Int? {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let status = try JSONSerialization.jsonObject(with: Data(board.waymark(["status", "--json"]).utf8)) as? [String: Any]
            let kept = (status?["sessions"] as? [String: Any])?["keptRequests"] as? Int
            if kept == expected || Date() > deadline { return kept }
            usleep(20_000)
        }
    }
}
