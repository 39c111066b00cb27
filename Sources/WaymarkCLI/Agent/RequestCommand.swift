import ArgumentParser
import Waymark
import WaymarkJSON
import WaymarkProtocol

/// `waymark request`: one location.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request", abstract: "Ask waymarkd for one location (requestLocation).")

    @Option(name: .long, help: "The accuracy to converge to, metres (0: the best it can do until the timeout).")
    var accuracy = 0.0

    @Option(name: .long, help: "How long to wait, seconds.")
    var timeout = 30.0

    @Flag(name: .long, help: "Print the location as JSON.")
    var json = false

    func validate() throws {
        guard accuracy >= 0, timeout > 0, timeout <= 3_600 else {
            throw ValidationError("--accuracy must be 0 or more and --timeout between 0 and 3600 seconds")
        }
    }

    func run() async throws {
        let location: Location
        do {
            location = try await Location.requestLocation(
                desiredAccuracy: accuracy, timeout: .milliseconds(Int64(timeout * 1_000)))
        } catch LocationError.locationUnknown {
            throw CommandFailure("no location could be had within \(timeout) s (location unknown)")
        }
        if json {
            var buffer = JSONBuffer()
            location.write(to: &buffer)
            buffer.newline()
            try StandardOutput().write(buffer.bytes)
        } else {
            let text = "\(location.latitude), \(location.longitude) ±\(location.horizontalAccuracy) m, altitude \(location.altitude) m, at \(location.timestamp.iso8601)\n"
            try StandardOutput().write(Array(text.utf8))
        }
    }
}
