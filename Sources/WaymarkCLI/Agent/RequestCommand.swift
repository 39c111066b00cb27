import ArgumentParser
import Waymark
import WaymarkJSON
import WaymarkProtocol
import WaymarkLocation
import WaymarkSystem

/// `waymark request`: one location.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request", abstract: "Ask waymarkd for one location (requestLocation).",
        discussion: "Ctrl-C withdraws the request before it exits, with status 130.")

    @Option(name: .long, parsing: .unconditional, help: "The accuracy wanted, metres (0: the best, once the accuracy stops improving).")
    var accuracy = 0.0

    @Option(name: .long, parsing: .unconditional, help: "How long to wait at most, seconds (\(LocationRequest.validTimeouts)).")
    var timeout = 30.0

    @Flag(name: .long, help: "Print the location as JSON.")
    var json = false

    func validate() throws {
        guard LocationRequest.isValidAccuracy(accuracy) else { throw ValidationError("--accuracy must be \(LocationRequest.validAccuracies)") }
        guard LocationRequest.isValidTimeout(timeout) else {
            throw ValidationError("--timeout must be \(LocationRequest.validTimeouts)")
        }
    }

    func run() async throws {
        let location: Location
        do {
            let (accuracy, timeout) = (accuracy, timeout)
            let answer = try await Interruption.cancellable {
                try await Location.requestLocation(desiredAccuracy: accuracy, timeout: .milliseconds(Int64(timeout * 1_000)))
            }
            // Interrupted (Ctrl-C, SIGTERM), with the request withdrawn: the shell's status for it.
            guard let answer else { throw ExitCode(130) }
            location = answer
        } catch LocationError.locationUnknown {
            throw CommandFailure("no location could be had within \(timeout) s (location unknown)")
        } catch LocationError.denied {
            throw CommandFailure("location denied: " + (await Self.whyDenied()))
        }
        if json {
            var buffer = JSONBuffer()
            location.write(to: &buffer)
            buffer.newline()
            try StandardOutput().write(buffer.bytes)
        } else {
            let text = "\(HumanText.coordinates(location)) ±\(HumanText.number(location.horizontalAccuracy, 1)) m, altitude \(HumanText.number(location.altitude, 1)) m, at \(location.timestamp.iso8601)\n"
            try StandardOutput().write(Array(text.utf8))
        }
    }

    /// Why the daemon gives this command no location, from its authorization, and what to do.
    private static func whyDenied() async -> String {
        switch try? await WaymarkAgent.authorization().status {
        case .notDetermined?:
            "not authorized yet. Run at a terminal, this command asks the operator, who answers with "
                + "`waymark auth grant APP`, APP being what `waymark auth pending` lists for this command "
                + "(uid \(CurrentProcess.userID), executable \(ShippedFile.executablePath() ?? "waymark")) (docs/authorization.md)"
        case .denied?: "the operator denied this app, or switched location services off (`waymark auth list`)"
        case .restricted?: "a policy in /etc/waymark/apps.d restricts this app"
        case .authorizedWhenInUse?: "authorized while in use, and this command is not: run it at a terminal"
        case .authorizedAlways?:
            "authorized always, which takes effect only while the app holds an always service session started "
                + "in use (docs/authorization.md); this command holds none, and is not in use: run it at a terminal"
        case nil: "the app is not authorized"
        }
    }
}
