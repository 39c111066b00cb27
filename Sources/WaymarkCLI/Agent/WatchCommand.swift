import ArgumentParser
import Waymark
import WaymarkJSON
import WaymarkProtocol
import WaymarkSystem
import WaymarkLocation

/// `waymark watch`: live updates on a terminal, or as JSON lines.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch live location updates from waymarkd.",
        discussion: """
            On a terminal, one status block is redrawn in place: the fix, its accuracy, speed, \
            whether the device is stationary, the GPS receiver's power state. Into a pipe or a \
            file, one plain line per update. With --json, one JSON object per update (the \
            protocol's update object). Ctrl-C stops, as does a reader that goes away (`| head`); \
            either way it tells the daemon first, so that it does not keep the subscription for a \
            rejoin (SIGTERM, a service manager's stop, leaves it kept, as for any consumer).
            """
    )

    @Option(name: .long, help: "The live-updates configuration: default, automotiveNavigation, otherNavigation, fitness, airborne.")
    var configuration = "default"

    @Flag(name: .long, help: "Print one JSON object per update instead of the status block.")
    var json = false

    func validate() throws {
        guard LiveConfiguration(rawValue: configuration) != nil else {
            throw ValidationError("--configuration must be one of \(LiveConfiguration.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let liveConfiguration = LiveConfiguration(rawValue: configuration) ?? .default
        // A reader that goes away (`waymark watch | head`) ends the watch as Ctrl-C does, through
        // the write's EPIPE, where SIGPIPE's default action would end the process at once.
        Signal.brokenPipe.ignore()
        let json = json
        _ = try await Interruption.cancellable { try await Self.watch(liveConfiguration, json: json) }
    }

    /// Shows each update until the task is cancelled.
    private static func watch(_ configuration: LiveConfiguration, json: Bool) async throws {
        var view = StatusView()
        let isTerminal = FileDescriptor.standardOutput.isTerminal
        for try await update in LocationUpdate.liveUpdates(configuration) {
            if json {
                var buffer = JSONBuffer()
                update.write(to: &buffer)
                buffer.newline()
                try StandardOutput().write(buffer.bytes)
            } else if !isTerminal {
                try StandardOutput().write(Array((HumanText.line(update) + "\n").utf8))
            } else {
                let status = try? await WaymarkAgent.status()
                view.show(update, status: status, configuration: configuration)
            }
        }
    }
}
