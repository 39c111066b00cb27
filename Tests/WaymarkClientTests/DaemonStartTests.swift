import Foundation
import Testing
import WaymarkServerTestSupport
import WaymarkStore
import WaymarkTestFixtures

/// `waymarkd` start-up failures.
@Suite(.ownThread) struct DaemonStartTests {
    @Test func aFailureAfterListeningLeavesNoSocketBehind() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        // The replay is read once the socket listens: a missing file fails the start then.
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = ["--socket", directory.socket(), "--replay", directory.path + "/missing.nmea"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.socket()))
    }

    @Test("socket activation with descriptor 3 closed, or not a socket, is refused with what is wrong (it was reported as another descriptor the daemon had opened there)")
    func aPassedDescriptorThatIsNotOpenOrNoSocket() throws {
        let cases = [
            ("exec 3<&-", "socket activation: Bad file descriptor (errno 9); LISTEN_FDS=1 passes descriptor 3, which is not open"),
            ("exec 3</dev/null", "waymarkd takes one listening AF_UNIX stream socket"),
        ]
        for (redirection, expected) in cases {
            // LISTEN_PID must name waymarkd itself: the shell's pid, which exec keeps.
            let (status, message) = try run(
                "/bin/sh", "-c", "\(redirection); LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" --socket /nonexistent/w.sock",
                DaemonProcess.binary.path)
            #expect(status == 2, "\(redirection)")
            #expect(message.contains(expected), "\(message)")
        }
    }

    @Test("an option of another source than the one that runs is refused (it was silently ignored)", arguments: [
        (["--replay", "capture.nmea", "--scenario", "desk-day"], "--scenario does not apply to --replay"),
        (["--device", "/dev/ttyAMA0", "--speed", "5"], "--speed does not apply to --device"),
        (["--scenario", "desk-day", "--baud", "4800"], "--baud does not apply to the simulated board"),
        (["--repeat"], "--repeat does not apply to the simulated board"),
        (["--board", "rpi-neo-m8n-adxl345", "--receiver", "mt3339"], "--receiver does not apply to --board"),
    ])
    func anOptionOfAnotherSource(options: [String], expected: String) throws {
        let (status, message) = try run(DaemonProcess.binary.path, ["--socket", "/nonexistent/waymark.sock"] + options)
        #expect(status == 2)
        #expect(message.contains(expected), "\(message)")
    }

    @Test("a --speed too small to keep time with (1e-300 trapped once a client subscribed) is refused")
    func aSpeedTooSmallIsRefused() throws {
        for speed in ["1e-300", "0.0009", "0", "nan"] {
            let (status, message) = try run(DaemonProcess.binary.path, "--socket", "/nonexistent/waymark.sock", "--speed", speed)
            #expect(status == 2, "--speed \(speed)")
            #expect(message.contains("--speed takes a number from 0.001 to 10000"))
        }
    }

    @Test("a store that cannot be used (not a database, a newer schema, a damaged authorization row) stops the start with its path and what to do (the message named neither)")
    func anUnusableStore() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let store = directory.path + "/store.db"
        let damage: [(String, (Database) throws -> Void)] = [
            ("a newer schema", { try $0.execute("PRAGMA user_version = 99") }),
            ("a table dropped by hand", { try $0.execute("DROP TABLE visits") }),
            (
                "an authorization the schema does not know",
                {
                    try $0.execute("PRAGMA ignore_check_constraints = ON")
                    try $0.execute("INSERT INTO apps (identityKind, identityKey, authorization, updatedAt) VALUES ('unit', 'a.service', 'sometimes', 0)")
                }
            ),
        ]
        var cases: [(String, () throws -> Void)] = [
            ("not a database", { try Data(repeating: UInt8(ascii: "x"), count: 4096).write(to: URL(fileURLWithPath: store)) })
        ]
        cases += damage.map { name, edit in (name, { try edit(try StoreSchema.open(path: store)) }) }
        for (name, make) in cases {
            try? FileManager.default.removeItem(atPath: store)
            try make()
            let (status, message) = try run(DaemonProcess.binary.path, "--socket", directory.socket(), "--store", store)
            #expect(status == 2, "\(name)")
            #expect(message.contains("the store \(store) cannot be used") && message.contains("Move it aside"), "\(name): \(message)")
        }
    }

    /// A store that cannot be used for its place or its permissions is not called damaged (its
    /// content is not in question: "move it aside" was the advice for a missing directory), and
    /// an empty option value is refused as one.
    @Test func aStoreInNoPlaceAndEmptyValues() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        for store in [directory.path + "/missing/store.db", "/dev/null"] {
            let (status, message) = try run(DaemonProcess.binary.path, "--socket", directory.socket(), "--store", store)
            #expect(status == 2, "\(store)")
            #expect(message.contains("the store \(store) cannot be used") && !message.contains("Move it aside"), "\(store): \(message)")
        }
        for option in ["--store", "--socket", "--policies", "--scenario"] {
            let (status, message) = try run(DaemonProcess.binary.path, option, "")
            #expect(status == 2 && message.contains("\(option) needs a value, not an empty string"), "\(option): \(message)")
        }
    }

    /// Runs `executable` with `arguments` to its end: its exit status and standard error.
    @Test("a generated day runs on the daemon as in power-run (it was looked for as a file); a seed that is no number, and a directory given as a capture, are refused by name")
    func generatedDaysAndMisnamedInputs() throws {
        let daemon = try DaemonProcess(["--scenario", "generated:7", "--speed", "50", "--verbose"])
        usleep(300_000)
        #expect(daemon.isRunning)
        daemon.stop()
        #expect(String(decoding: daemon.log.fileHandleForReading.availableData, as: UTF8.self).contains("scenario generated:7)"))
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        for (options, expected) in [
            (["--scenario", "generated:1e3"], "'generated:1e3' names no generated day: write generated:N with a seed N from 0 to 18446744073709551615"),
            (["--replay", directory.path], "read(\"\(directory.path)\"): Is a directory"),
        ] {
            let (status, message) = try run(DaemonProcess.binary.path, ["--socket", directory.socket()] + options)
            #expect(status == 2)
            #expect(message.contains(expected), "\(message)")
        }
    }

    private func run(_ executable: String, _ arguments: String...) throws -> (status: Int32, message: String) {
        try run(executable, arguments)
    }

    /// Runs `executable` with `arguments` to its end: its exit status and standard error.
    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let log = Pipe()
        process.standardError = log
        try process.run()
        let message = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }
}
