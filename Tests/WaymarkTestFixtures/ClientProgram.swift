import Foundation
import WaymarkSystem

/// A program a test runs unmodified and reads, such as one of gpsd's clients (`gpspipe`,
/// `gpxlogger`, `cgps` at a pseudo-terminal, `python3` with the `gps` module).
package enum ClientProgram {
    /// Runs `executable` with `arguments` (and `environment` over the test's own) until it
    /// exits, or `seconds` pass: then SIGTERM, and SIGKILL 2 s later (gpxlogger may stay after
    /// writing its footer). Returns its standard output, or `nil` when it is not installed.
    package static func output(
        of executable: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double
    ) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        let output = Pipe()
        let process = try start(executable, arguments, environment: environment) { process in
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
        }
        let ending = end(process, after: seconds)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ending.cancel()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `executable` at a pseudo-terminal of its own (its standard input, output and error)
    /// for `seconds`, or until it exits, and returns everything it wrote there: the screen of
    /// a curses program such as `cgps`, with its terminal codes. `nil` when it is not installed.
    /// A terminal made here, not script(1)'s: with its input at end of file, script(1) once
    /// sat 14 s in a loaded run without starting cgps or writing a byte.
    package static func screen(
        of executable: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double
    ) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        let terminal = try PseudoTerminal()
        defer { try? terminal.primary.close() }
        let secondary = FileHandle(fileDescriptor: terminal.secondary.rawValue, closeOnDealloc: false)
        let process: Process
        do {
            process = try start(executable, arguments, environment: environment) { process in
                process.standardInput = secondary
                process.standardOutput = secondary
                process.standardError = secondary
            }
        } catch {
            try? terminal.secondary.close()
            throw error
        }
        // Only the program holds the terminal now, so a read fails (EIO) once it has exited.
        try? terminal.secondary.close()
        let ending = end(process, after: seconds)
        var screen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let patience = ContinuousClock.now + .seconds(seconds + 4)
        reading: while ContinuousClock.now < patience {
            guard (try? terminal.primary.wait(for: .readable, timeout: .milliseconds(100))) == true else { continue }
            do {
                guard let count = try buffer.withUnsafeMutableBytes({ bytes throws(SystemError) in try terminal.primary.read(into: bytes) })
                else { continue }
                if count == 0 { break reading }
                screen += buffer.prefix(count)
            } catch {
                break reading
            }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        ending.cancel()
        return String(decoding: screen, as: UTF8.self)
    }

    private static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], connect: (Process) -> Void
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        connect(process)
        try process.run()
        return process
    }

    /// SIGTERM to `process` after `seconds` and SIGKILL 2 s later, unless cancelled first.
    private static func end(_ process: Process, after seconds: Double) -> DispatchWorkItem {
        let ending = DispatchWorkItem {
            guard process.isRunning else { return }
            process.terminate()
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: ending)
        return ending
    }
}
