package import Foundation

/// The real chronyd, without control of the clock (`-x`), in a temporary directory of its own
/// (pid file, command socket, logs with `log refclocks`), with the refclock lines a test
/// gives; and the helpers to read what it made of them.
package final class Chronyd {
    package static let daemon = ["/usr/sbin/chronyd", "/sbin/chronyd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    package static let client = ["/usr/bin/chronyc", "/bin/chronyc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Why the tests that need chronyd cannot run here, if they cannot.
    package static let unavailable: String? =
        daemon == nil || client == nil
        ? "chronyd and chronyc are not installed (Debian package chrony)" : getuid() != 0 ? "chronyd runs only as root" : nil

    /// The directory: chrony.conf, chronyd.out, refclocks.log, and room for the test's sockets.
    package let directory: String
    private var process: pid_t?

    /// A directory for chronyd; nothing runs until ``start(_:)``.
    package init() throws {
        var template = Array("/tmp/waymark-chrony.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        directory = String(cString: made)
    }

    /// Starts chronyd with `refclocks` (chrony.conf lines) and waits up to 5 s for `waitFor`.
    package func start(_ refclocks: [String], waitFor: String? = nil) async throws -> Bool {
        let configuration = refclocks + [
            "cmdport 0", "bindcmdaddress \(directory)/chronyd.sock", "pidfile \(directory)/chronyd.pid", "logdir \(directory)",
            "log refclocks",
        ]
        try configuration.joined(separator: "\n").write(toFile: "\(directory)/chrony.conf", atomically: true, encoding: .utf8)
        process = Self.spawn([Self.daemon!, "-x", "-d", "-u", "root", "-f", "\(directory)/chrony.conf"], output: "\(directory)/chronyd.out")
        guard process != nil, let waitFor else { return process != nil }
        return await Self.waitForFile(waitFor)
    }

    /// Stops chronyd and removes the directory.
    package func stop() {
        if let process { Self.stop(process) }
        process = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What chronyd wrote to standard error.
    package var output: String { (try? String(contentsOfFile: "\(directory)/chronyd.out", encoding: .utf8)) ?? "" }

    /// A sample chronyd logged: when (on its corrected clock, seconds since 1970, to the
    /// microsecond), the raw offset (true minus local time as sent) and the cooked one
    /// (against its corrected clock). `time + cooked` is the true time of the sample.
    package typealias RefclockSample = (time: Double, raw: Double, cooked: Double)

    /// chronyd's refclocks.log: each source's samples, in order; the filter's lines are left out.
    package func refclockSamples() -> [String: [RefclockSample]] {
        let text = (try? String(contentsOfFile: "\(directory)/refclocks.log", encoding: .utf8)) ?? ""
        var samples: [String: [RefclockSample]] = [:]
        for line in text.split(separator: "\n") {
            // Date, time (UTC), refid, DP, L, P, raw offset, cooked offset, dispersion.
            let fields = line.split(separator: " ")
            guard fields.count == 9, let time = Self.secondsSince1970(date: fields[0], time: fields[1]), let raw = Double(fields[6]),
                let cooked = Double(fields[7])
            else { continue }
            samples[String(fields[2]), default: []].append((time, raw, cooked))
        }
        return samples
    }

    /// `2026-11-27 08:50:01.000123` (UTC) in seconds since 1970.
    static func secondsSince1970(date: Substring, time: Substring) -> Double? {
        let day = date.split(separator: "-").compactMap { Int32($0) }
        let clock = time.split(separator: ":")
        guard day.count == 3, clock.count == 3, let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Double(clock[2])
        else { return nil }
        var fields = tm()
        fields.tm_year = day[0] - 1900
        fields.tm_mon = day[1] - 1
        fields.tm_mday = day[2]
        fields.tm_hour = hour
        fields.tm_min = minute
        return Double(timegm(&fields)) + second
    }

    /// chronyc's machine-readable rows of `command` (`sources`, `sourcestats`), by source name.
    package func rows(_ command: String) -> [String: [String]] {
        let output = "\(directory)/chronyc.out"
        guard let process = Self.spawn([Self.client!, "-c", "-h", "\(directory)/chronyd.sock", command], output: output) else { return [:] }
        var status: Int32 = 0
        waitpid(process, &status, 0)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let name = command == "sources" ? 2 : 0
            if fields.count > name { rows[fields[name]] = fields }
        }
        return rows
    }

    /// Starts `arguments` with stdout and stderr to the file `output` and `environment` added,
    /// with no signal blocked (the test runner's mask would keep a daemon from seeing SIGTERM).
    package static func spawn(_ arguments: [String], output: String, environment: [String] = []) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let strings = arguments.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        var inherited: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            inherited.append(String(cString: variable))
            entry += 1
        }
        let variables = (inherited + environment).map { strdup($0) } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, arguments[0], &actions, &attributes, strings, variables) == 0 ? pid : nil
    }

    /// SIGTERM, and SIGKILL if it has not exited 5 s later.
    package static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    /// Waits up to `seconds` for `path` to exist (without blocking the test's thread).
    package static func waitForFile(_ path: String, seconds: Int = 5) async -> Bool {
        for _ in 0..<seconds * 20 {
            if FileManager.default.fileExists(atPath: path) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The first NTP SHM unit from `lowest` up with no segment at it and the `count - 1` after it.
    package static func freeSHMUnits(from lowest: UInt8 = 2, count: UInt8 = 1) -> UInt8? {
        (lowest...(UInt8.max - count)).first { unit in
            (0..<count).allSatisfy { shmget(key_t(0x4e54_5030) + key_t(unit + $0), 0, 0) == -1 && errno == ENOENT }
        }
    }

    package static func removeSHMSegment(unit: UInt8) {
        let id = shmget(key_t(0x4e54_5030) + key_t(unit), 0, 0)
        if id >= 0 { _ = shmctl(id, IPC_RMID, nil) }
    }
}
