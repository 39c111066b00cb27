import Foundation

/// A program a test runs unmodified and reads, such as one of gpsd's clients (`gpspipe`,
/// `gpxlogger`, `cgps` under `script(1)`, `python3` with the `gps` module).
package enum ClientProgram {
    /// Runs `executable` with `arguments` (and `environment` over the test's own) until it
    /// exits, or `seconds` pass: then SIGTERM, and SIGKILL 2 s later (gpxlogger may stay after
    /// writing its footer). Returns its standard output, or `nil` when it is not installed.
    package static func output(
        of executable: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double
    ) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + seconds
        DispatchQueue.global().asyncAfter(deadline: deadline) { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline + 2) { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
