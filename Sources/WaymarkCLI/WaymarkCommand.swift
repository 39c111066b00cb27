import ArgumentParser
import WaymarkProtocol
import WaymarkSystem

/// `waymark`: the command-line tool of the Waymark location agent.
@main
struct WaymarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "Waymark, a location agent for Raspberry Pi class boards.",
        version: WaymarkRelease.version,
        subcommands: [
            WatchCommand.self, StatusCommand.self, RequestCommand.self, NMEACommand.self, PowerRunCommand.self,
            PowerLogCommand.self, PowerReportCommand.self,
            DoctorCommand.self, AuthCommand.self, MonitorCommand.self, VisitsCommand.self,
        ]
    )

    /// Parses and runs what the user typed, as ArgumentParser does, except that a failure's
    /// message is made printable first (`DisplayText.printable`): it may quote a file's or a
    /// device's bytes, which must not reach the terminal as escape sequences.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let status = exitCode(for: error)
            if status.isSuccess { exit(withError: error) }  // help and version, the tool's own text
            let message = fullMessage(for: error)
            if !message.isEmpty { StandardError.write(DisplayText.printable(message, keepingLineBreaks: true) + "\n") }
            CurrentProcess.exit(status.rawValue)
        }
    }
}
