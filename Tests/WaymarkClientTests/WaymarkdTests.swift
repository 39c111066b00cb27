import Foundation
import Testing
import Waymark
import WaymarkLocation

extension ClientLibraryTests {
/// The real daemon on a Unix socket with the real client library.
@Suite("with the real waymarkd", .serialized, .timeLimit(.minutes(2)))
struct WaymarkdTests {

    /// A walk, a desk, a walk: compressed 20×.
    func walkDeskWalk() throws -> DaemonProcess {
        let scenario = try DaemonProcess.scenario("walk 90s\ndesk 60s\nwalk 60s\n")
        return try DaemonProcess(["--scenario", scenario, "--speed", "20"])
    }

    @Test("updates flow, pause with exactly one isStationary update on the desk, and resume when it moves")
    func pauseAndResume() async throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let updates = try await within(60) { () -> [LocationUpdate] in
            var seen: [LocationUpdate] = []
            var paused = false
            for try await update in LocationUpdate.liveUpdates(.default) {
                seen.append(update)
                if update.isStationary { paused = true }
                if paused, !update.isStationary, update.location != nil { break }
            }
            return seen
        }
        let stationary = updates.indices.filter { updates[$0].isStationary }
        #expect(stationary.count == 1)
        let pause = try #require(stationary.first)
        #expect(updates[pause].location != nil)
        #expect(updates[..<pause].contains { $0.location != nil && !$0.isStationary })
        // After the pause the very next update is the resumed one.
        #expect(pause + 2 == updates.count)
        #expect(updates.last?.isStationary == false)
        #expect(updates.last?.location != nil)
        // While starting, the receiver had no fix: that was said once, not repeated.
        let unavailable = updates.prefix { $0.location == nil }
        #expect(unavailable.count <= 1)
        #expect(unavailable.allSatisfy { $0.diagnostics.locationUnavailable })
    }

    @Test("leaving the loop ends the subscription in the daemon; first(where:) stops once matched")
    func subscriptionEnds() async throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let match = try await within(30) {
            try await LocationUpdate.liveUpdates(.fitness).first { $0.location != nil }
        }
        #expect(match?.location != nil)
        let subscriptions = try await within(10) { () -> Int in
            for _ in 0..<100 {
                let status = try await WaymarkAgent.status()
                if status.liveSubscriptions == 0 { return 0 }
                try await Task.sleep(for: .milliseconds(50))
            }
            return try await WaymarkAgent.status().liveSubscriptions
        }
        #expect(subscriptions == 0)
    }

    @Test("requestLocation converges to one location")
    func requestLocation() async throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let location = try await within(30) {
            try await Location.requestLocation(desiredAccuracy: 20, timeout: .seconds(20))
        }
        #expect(location.horizontalAccuracy <= 20)
        #expect(location.sourceInformation.isSimulatedBySoftware)
    }

    @Test("a daemon restart shows up as daemonUnavailable and the sequence continues")
    func restart() async throws {
        var daemon = try walkDeskWalk()
        let iterator = Box(LocationUpdate.liveUpdates(.default).makeAsyncIterator())
        let first = try await within(30) { () -> LocationUpdate? in
            while let update = try await iterator.next() { if update.location != nil { return update } }
            return nil
        }
        #expect(first?.location != nil)
        daemon.stop()
        let gap = try await within(10) { () -> LocationUpdate? in
            while let update = try await iterator.next() { if update.diagnostics.daemonUnavailable { return update } }
            return nil
        }
        #expect(gap?.location == nil)
        daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let after = try await within(30) { () -> LocationUpdate? in
            while let update = try await iterator.next() { if update.location != nil { return update } }
            return nil
        }
        #expect(after?.location != nil)
    }

    @Test("SIGHUP, SIGUSR1 and SIGUSR2 are logged and survived, SIGPIPE ignored (their default action killed the daemon)")
    func survivesSignals() async throws {
        let daemon = try walkDeskWalk()
        for signal in [SIGHUP, SIGUSR1, SIGUSR2, SIGPIPE] {
            daemon.send(signal)
            let status = try await within(10) { try await WaymarkAgent.status() }
            #expect(status.daemonVersion.isEmpty == false)
            #expect(daemon.isRunning)
        }
        daemon.stop()
        #expect(daemon.exitStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: DaemonProcess.socket))
    }

    @Test("a log reader that goes away: the daemon goes on serving, and sleeps")
    func aLogReaderThatGoesAway() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 30m\n"), "--speed", "20", "--verbose"])
        defer { daemon.stop() }
        try daemon.log.fileHandleForReading.close()
        daemon.send(SIGHUP)  // its log line meets the broken pipe
        let status = try await within(10) { try await WaymarkAgent.status() }
        #expect(status.daemonVersion.isEmpty == false)
        let before = daemon.processorSeconds
        try await Task.sleep(for: .seconds(2))
        // A loop spinning on its own SIGPIPE used all of those 2 s; at a desk it wakes a few
        // times a second.
        #expect(daemon.processorSeconds - before < 1)
        #expect(daemon.isRunning)
    }

    @Test("a log reader that stops reading: the daemon goes on serving, drops lines and says how many")
    func aLogReaderThatStopsReading() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 30m\n"), "--verbose"])
        defer { daemon.stop() }
        // Each client is logged as it comes (a line of about 56 bytes): 3,000 fill the pipe
        // (64 KiB) more than twice over. The daemon waited on the full pipe, and every client
        // with it.
        for round in 0..<60 {
            for _ in 0..<50 { DaemonProcess.connection(to: DaemonProcess.socket).map { _ = close($0) } }
            let status = try await within(10) { try await WaymarkAgent.status() }
            #expect(status.daemonVersion.isEmpty == false, "round \(round)")
        }
        let reader = daemon.log.fileHandleForReading
        _ = fcntl(reader.fileDescriptor, F_SETFL, O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while read(reader.fileDescriptor, &chunk, chunk.count) > 0 {}
        DaemonProcess.connection(to: DaemonProcess.socket).map { _ = close($0) }  // logged after the count
        var log = ""
        let deadline = Date().addingTimeInterval(10)
        while !log.contains("dropped"), Date() < deadline {
            let count = read(reader.fileDescriptor, &chunk, chunk.count)
            if count > 0 { log += String(decoding: chunk[..<count], as: UTF8.self) } else { usleep(20_000) }
        }
        #expect(log.contains(" log lines dropped: the log's reader fell behind\n"))
        #expect(daemon.isRunning)
    }

    @Test("a watchdog interval beyond the clock's range (WATCHDOG_USEC of 2^63 − 1) is survived")
    func anEndlessWatchdogInterval() async throws {
        let notify = DaemonProcess.directory.appendingPathComponent("notify").path
        let daemon = try DaemonProcess(
            ["--scenario", try DaemonProcess.scenario("desk 30m\n")],
            environment: ["NOTIFY_SOCKET": notify, "WATCHDOG_USEC": "\(Int64.max)"])
        defer { daemon.stop() }
        let status = try await within(10) { try await WaymarkAgent.status() }
        #expect(status.daemonVersion.isEmpty == false)
        daemon.stop()
        #expect(daemon.exitStatus == 0)
    }

    @Test("out of descriptors, the daemon rests its listener instead of spinning, and serves once they are free")
    func outOfDescriptors() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 30m\n"), "--verbose"], fileLimit: 32)
        defer { daemon.stop() }
        // More connections than the daemon has descriptors left: the last wait unaccepted.
        var flood = (0..<40).compactMap { _ in DaemonProcess.connection(to: DaemonProcess.socket) }
        defer { flood.forEach { close($0) } }
        #expect(flood.count == 40)
        try await Task.sleep(for: .milliseconds(500))
        let before = daemon.processorSeconds
        try await Task.sleep(for: .seconds(2))
        // Accepting again and again on EMFILE used all of those 2 s.
        #expect(daemon.processorSeconds - before < 1)
        flood.forEach { close($0) }
        flood = []
        let status = try await within(10) { try await WaymarkAgent.status() }
        #expect(status.daemonVersion.isEmpty == false)
    }

    @Test("waymark watch writes one plain line per update into a pipe, no terminal codes")
    func watchIntoAPipe() throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let (watch, output, _) = try startWaymark(["watch"])
        var text = ""
        let reader = output.fileHandleForReading
        while text.split(separator: "\n").count < 3 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        watch.terminate()
        watch.waitUntilExit()
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3)
        #expect(!text.contains("\u{1B}"))
        for line in lines.prefix(3) {
            #expect(line.contains("moving") || line.contains("stationary"))
        }
        #expect(lines.contains { $0.contains("°, ") && $0.contains("±") })
    }

    @Test("Ctrl-C stops waymark watch cleanly: exit 0, its subscription ended in the daemon, not kept for a rejoin")
    func watchStoppedWithControlC() async throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let (watch, output, _) = try startWaymark(["watch", "--json"])
        let firstLine = output.fileHandleForReading.availableData
        #expect(!firstLine.isEmpty)
        watch.interrupt()
        watch.waitUntilExit()
        #expect(watch.terminationReason == .exit)
        #expect(watch.terminationStatus == 0)
        let status = try await within(10) { try await WaymarkAgent.status() }
        #expect(status.liveSubscriptions == 0)
        #expect(status.sessions.keptSubscriptions == 0)
    }

    @Test("waymark watch whose reader goes away (| head) ends with 0, its subscription ended in the daemon (SIGPIPE killed it, the subscription kept)")
    func watchWhoseReaderGoesAway() async throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let (watch, output, _) = try startWaymark(["watch"])
        #expect(!output.fileHandleForReading.availableData.isEmpty)
        try output.fileHandleForReading.close()
        watch.waitUntilExit()
        #expect(watch.terminationReason == .exit)
        #expect(watch.terminationStatus == 0)
        let status = try await within(10) { try await WaymarkAgent.status() }
        #expect(status.liveSubscriptions == 0)
        #expect(status.sessions.keptSubscriptions == 0)
    }

    @Test("waymark visits on a daemon without a store says why the diary is empty (it printed nothing)")
    func visitsWithoutAStore() throws {
        let daemon = try walkDeskWalk()
        defer { daemon.stop() }
        let (visits, output, error) = try startWaymark(["visits"])
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        visits.waitUntilExit()
        #expect(visits.terminationStatus == 0)
        #expect(printed.isEmpty)
        #expect(said == "no visits in the diary (the daemon keeps one only when it runs with --store)\n")
    }

    @Test("a start-up failure after listening leaves no socket behind")
    func failedStartLeavesNoSocket() throws {
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = ["--socket", DaemonProcess.socket, "--replay", DaemonProcess.directory.path + "/no-such-capture.nmea"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(!FileManager.default.fileExists(atPath: DaemonProcess.socket))
    }

    @Test("SIGTERM ends the daemon cleanly and removes its socket")
    func cleanShutdown() throws {
        let daemon = try walkDeskWalk()
        daemon.stop()
        #expect(daemon.exitStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: DaemonProcess.socket))
    }
}

/// Lets test closures share one iterator.
final class Box: @unchecked Sendable {
    var iterator: LocationUpdate.Updates.AsyncIterator
    init(_ iterator: LocationUpdate.Updates.AsyncIterator) { self.iterator = iterator }
    func next() async throws -> LocationUpdate? { try await iterator.next() }
}
}
