import ArgumentParser

/// `waymark`: the command-line tool of the Waymark location agent.
@main
struct WaymarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "Waymark, a location agent for Raspberry Pi class boards.",
        subcommands: [NMEACommand.self, PowerRunCommand.self, DoctorCommand.self]
    )
}
