import Foundation
import Testing
import Waymark
import WaymarkLocation

extension ClientLibraryTests.WaymarkdTests {
    /// `waymark watch --json` as an app, killed and restarted (docs/semantics.md, "Consumers
    /// that come and go"). Every run of it is the same app: its executable and uid.
    final class Watcher {
        private let process = Process()
        private let output = Pipe()
        private var pending = Data()

        init() throws {
            process.executableURL = DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark")
            process.arguments = ["watch", "--json", "--configuration", "fitness"]
            var environment = ProcessInfo.processInfo.environment
            environment["WAYMARK_SOCKET"] = DaemonProcess.socket
            process.environment = environment
            process.standardOutput = output
            try process.run()
        }

        /// The fix times of the next `count` updates with a location.
        func fixTimes(_ count: Int) -> [Date] {
            var times: [Date] = []
            while times.count < count {
                guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    pending += chunk
                    continue
                }
                let line = pending[..<newline]
                pending = Data(pending[(newline + 1)...])
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                    let location = object["location"] as? [String: Any], let text = location["timestamp"] as? String,
                    let time = Self.parse(text)
                {
                    times.append(time)
                }
            }
            return times
        }

        /// Kills it with `signal` and waits for it to end.
        func kill(_ signal: Int32) {
            Glibc.kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }

        private static func parse(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text)
        }
    }

    /// A long walk, compressed 4×: a fix every scenario second.
    func walk() throws -> DaemonProcess {
        try DaemonProcess(["--scenario", try DaemonProcess.scenario("walk 600s\n"), "--speed", "4"])
    }

    @Test("an app killed with SIGKILL and restarted within the window re-takes its subscription and gets what was kept; the receiver is not cycled")
    func killedAndRestarted() async throws {
        let daemon = try walk()
        defer { daemon.stop() }
        let first = try Watcher()
        let before = first.fixTimes(3)
        try #require(before.count == 3)
        let transitions = try await WaymarkAgent.status().transitions
        first.kill(SIGKILL)
        // Away for 1 s (4 fixes): the subscription is kept, the receiver stays on.
        try await Task.sleep(for: .seconds(1))
        let away = try await WaymarkAgent.status()
        #expect(away.liveSubscriptions == 1)

        let second = try Watcher()
        defer { second.kill(SIGTERM) }
        let after = second.fixTimes(12)
        try #require(after.count == 12)
        // The first update the new process gets was kept while it was away: it follows the
        // last one the killed process read, at most the one or two already in the dead
        // socket's buffer lost (docs/semantics.md).
        let resumedGap = after[0].timeIntervalSince(before[2])
        #expect(resumedGap >= 0.5 && resumedGap <= 3.5, "gap \(resumedGap) s")
        // From there on, none is lost: a fix every second.
        for (earlier, later) in zip(after, after.dropFirst()) {
            #expect(abs(later.timeIntervalSince(earlier) - 1) < 0.01)
        }
        let now = try await WaymarkAgent.status()
        #expect(now.transitions == transitions)
        #expect(now.liveSubscriptions == 1)
    }

    @Test("an app that does not come back within the window has its subscription ended")
    func killedAndGone() async throws {
        let daemon = try walk()
        defer { daemon.stop() }
        let watcher = try Watcher()
        try #require(watcher.fixTimes(1).count == 1)
        let killed = ContinuousClock.now
        watcher.kill(SIGKILL)
        // Kept for the window, 5 s from the disconnect (no sooner: load only makes it later).
        var remaining = 1
        for _ in 0..<300 where remaining > 0 {
            try await Task.sleep(for: .milliseconds(100))
            remaining = try await WaymarkAgent.status().liveSubscriptions
        }
        #expect(remaining == 0)
        let kept = ContinuousClock.now - killed
        #expect(kept >= .seconds(4.5) && kept < .seconds(30), "kept \(kept)")
    }
}
