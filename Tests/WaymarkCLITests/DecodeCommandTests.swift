import Foundation
import Testing
import WaymarkTestFixtures

/// Runs the built `waymark` binary with arguments and optional standard input.
func runWaymark(
    _ arguments: [String], input: Data? = nil, program: String = "waymark", directory: URL? = nil,
    environment: [String: String] = [:], user: UInt32? = nil
) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    let binary = CLIFixtures.binary.deletingLastPathComponent().appendingPathComponent(program)
    if let user {  // as that user, with setpriv (as root)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary.path] + arguments
    } else {
        process.executableURL = binary
        process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let inputPipe = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(input) }
    try inputPipe.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

enum CLIFixtures {
    /// A new directory `waymark-NAME-PID` in the temporary directory, for the caller to remove.
    static func makeDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The `waymark` binary next to the test bundle in the build folder.
    static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        let candidate = directory.appendingPathComponent("waymark")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/waymark")
    }()

    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd")
}

@Suite("waymark nmea decode", .ownThread)
struct DecodeCommandTests {
    @Test("prints one TPV line per epoch with gpsd's members")
    func decodesCapture() throws {
        let result = try runWaymark(["nmea", "decode", CLIFixtures.captures.appendingPathComponent("ublox-zed-f9p-nmea.log").path])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 29)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(first?["class"] as? String == "TPV")
        #expect(first?["time"] as? String == "2019-04-12T00:39:56.000Z")
        #expect(first?["mode"] as? Int == 3)
        #expect(first?["lat"] is Double)
        #expect(first?["altMSL"] is Double)
    }

    @Test("reads standard input, and --date seeds GGA-only data")
    func standardInputAndDate() throws {
        let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
        let result = try runWaymark(["nmea", "decode", "--date", "2021-03-04", "-"], input: Data(gga.utf8))
        #expect(result.status == 0)
        #expect(result.output.contains(#""time":"2021-03-04T12:35:19.000Z""#))
    }

    @Test("garbage input decodes to nothing, without crashing; the counts say why, and the exit status that it held no sentence (it exited 0 in silence)")
    func garbage() throws {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var state: UInt64 = 1
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        bytes += Array("$GPGGA,broken*00\r\n$GPGGA,123519,48x7.038,N*5C\r\n".utf8)
        let result = try runWaymark(["nmea", "decode", "--statistics", "-"], input: Data(bytes))
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("bad checksum"))
        #expect(result.error.contains("noise bytes"))
        #expect(result.error.contains("no NMEA sentence with a valid checksum in the input"))
        let silent = try runWaymark(["nmea", "decode", "-"], input: Data(bytes))
        #expect(silent.status == 1 && silent.error.contains("--statistics says what was rejected"), "\(silent.error)")
    }

    @Test("a missing file, a directory and a bad date give a clear error and a non-zero exit")
    func badInput() throws {
        let missing = try runWaymark(["nmea", "decode", "/nonexistent/capture.log"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("cannot open '/nonexistent/capture.log': No such file or directory"))
        let directory = try runWaymark(["nmea", "decode", "/tmp"])
        #expect(directory.status != 0)
        #expect(directory.error.contains("is a directory"))
        let date = try runWaymark(["nmea", "decode", "--date", "2019-13-01", "-"])
        #expect(date.status != 0)
        #expect(date.error.contains("--date must be a calendar date"))
    }
}
