import ArgumentParser

/// `waymark nmea`: tools for NMEA 0183 data.
struct NMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: "Work with NMEA 0183 data.",
        subcommands: [DecodeCommand.self]
    )
}
