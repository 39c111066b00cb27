import ArgumentParser
import WaymarkProtocol

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
}
