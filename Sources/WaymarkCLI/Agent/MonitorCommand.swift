import ArgumentParser
import Waymark
import WaymarkSystem

/// `waymark monitor`: the app's monitors (`CLMonitor`) from a shell: add and remove circles,
/// list them with their states, watch their events.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Add, remove, list and watch geofence conditions kept by waymarkd.",
        discussion: """
            A monitor is named; its conditions belong to the app the command runs as (its \
            executable and user, or WAYMARK_APP_ID where a policy binds it) and persist in the \
            daemon, which watches them while nothing is connected. An app watches at most 20 \
            conditions across its monitors.
            """,
        subcommands: [Add.self, Remove.self, List.self, Watch.self]
    )

    /// The monitor's name, shared by the subcommands.
    struct Name: ParsableArguments {
        @Argument(help: "The monitor's name (1 to 128 bytes).")
        var monitor: String
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add (or replace) a circular condition.")

        @OptionGroup var name: Name
        @Argument(help: "The condition's identifier (1 to 128 bytes).")
        var identifier: String
        // Taken as they come, so that a negative coordinate (west, south) is not read as an option.
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "The centre's latitude and longitude, degrees (negative west and south), and the radius, metres (1 to 100000).",
                valueName: "latitude longitude radius"))
        var circle: [String] = []
        @Option(help: "The state to assume until a fix decides: unknown, satisfied, unsatisfied.")
        var assuming = "unknown"

        /// The circle's values that are decimal numbers (not `nan`, `inf` or hexadecimal, which
        /// `Double` also reads), `-0` as 0.
        private var numbers: [Double] {
            circle.compactMap { text in
                guard text.allSatisfy({ "0123456789+-.eE".contains($0) }), let value = Double(text), value.isFinite else { return nil }
                return value + 0
            }
        }

        func validate() throws {
            guard circle.count == 3, numbers.count == 3 else {
                throw ValidationError(
                    "give the centre's latitude and longitude and the radius: three numbers, as 47.3769 -8.5417 150 (got \(circle.joined(separator: " ")))")
            }
        }

        func run() async throws {
            guard let state = Monitor.Event.State(rawValue: assuming), state != .unmonitored else {
                throw ValidationError("--assuming must be unknown, satisfied or unsatisfied")
            }
            let monitor = try await Monitor(named: name.monitor)
            try await monitor.add(
                Monitor.CircularGeographicCondition(latitude: numbers[0], longitude: numbers[1], radius: numbers[2]), identifier: identifier,
                assuming: state)
            guard let record = try await monitor.record(for: identifier) else { return }
            try StandardOutput().write(Array((MonitorCommand.line(identifier, record) + "\n").utf8))
            if record.lastEvent.persistenceUnavailable {
                throw CommandFailure("the daemon watches the condition but could not store it (see its log): it is lost when waymarkd stops")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a condition.")

        @OptionGroup var name: Name
        @Argument(help: "The condition's identifier.")
        var identifier: String

        func run() async throws {
            try await Monitor(named: name.monitor).remove(identifier)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a monitor's conditions and their last events.")

        @OptionGroup var name: Name

        func run() async throws {
            let monitor = try await Monitor(named: name.monitor)
            var lines = ""
            for identifier in try await monitor.identifiers {
                guard let record = try await monitor.record(for: identifier) else { continue }
                lines += MonitorCommand.line(identifier, record) + "\n"
            }
            try StandardOutput().write(Array(lines.utf8))
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a monitor's events as they happen (first those not taken yet). Ctrl-C stops.")

        @OptionGroup var name: Name

        func run() async throws {
            for try await event in try await Monitor(named: name.monitor).events {
                try StandardOutput().write(Array((MonitorCommand.line(event) + "\n").utf8))
            }
        }
    }

    /// `home  47.3769000 8.5417000 r=150 m  satisfied since 2026-11-23T10:00:00.000Z`; a
    /// beacon or an unknown kind by its kind (`shop  beaconIdentity  unmonitored …`); the
    /// daemon's names made printable (``DisplayText``).
    static func line(_ identifier: String, _ record: Monitor.Record) -> String {
        let condition =
            switch record.condition {
            case .circularGeographic(let circle): "\(circle.latitude) \(circle.longitude) r=\(circle.radius) m"
            case .beaconIdentity: "beaconIdentity"
            case .unsupported(let type): DisplayText.printable(type)
            }
        return "\(DisplayText.printable(identifier))  \(condition)  \(line(record.lastEvent, named: false))"
    }

    /// `home satisfied 2026-11-23T10:00:00.000Z [accuracyLimited]`.
    static func line(_ event: Monitor.Event, named: Bool = true) -> String {
        var flags: [String] = []
        if event.accuracyLimited { flags.append("accuracyLimited") }
        if event.conditionLimitExceeded { flags.append("conditionLimitExceeded") }
        if event.conditionUnsupported { flags.append("conditionUnsupported") }
        if event.persistenceUnavailable { flags.append("persistenceUnavailable") }
        let prefix = named ? DisplayText.printable(event.identifier) + " " : ""
        return prefix + "\(event.state.rawValue) \(event.date)" + (flags.isEmpty ? "" : " [" + flags.joined(separator: ", ") + "]")
    }
}
