import ArgumentParser
import Waymark

/// `waymark visits`: the device's visit diary (`CLVisit`s), and with `--watch` the visit
/// service (`startMonitoringVisits`).
struct VisitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "Print the places the device stayed at for 5 minutes or more, oldest first.",
        discussion: """
            One line per visit: arrival, departure (or "here" while it lasts), the place's \
            centre and the radius it lies within. Kept by a daemon with a store (--store); \
            under reduced accuracy each centre is its cell's. With --watch, the diary is \
            followed by the arrivals and departures the daemon kept for this app while no \
            watch ran (they are in the diary too), then each as it happens (the daemon \
            monitors visits for this app until --stop); Ctrl-C ends the watch.
            """
    )

    @Flag(help: "Start visit monitoring and print each arrival and departure as it happens.")
    var watch = false

    @Flag(help: "Stop this app's visit monitoring.")
    var stop = false

    func validate() throws {
        if watch && stop { throw ValidationError("give --watch or --stop, not both") }
    }

    func run() async throws {
        if stop { return try await VisitMonitor().stop() }
        // Started before the diary is read, so that nothing falls between the two.
        let monitor = watch ? try await VisitMonitor() : nil
        let diary = try await WaymarkAgent.visits()
        if diary.isEmpty, monitor == nil {
            // Said on standard error, so that a pipe still gets the empty diary.
            StandardError.write("no visits in the diary (the daemon keeps one only when it runs with --store)\n")
        }
        try StandardOutput().write(Array(diary.map(Self.line).joined().utf8))
        guard let monitor else { return }
        for await visit in monitor.visits { try StandardOutput().write(Array(Self.line(visit).utf8)) }
    }

    /// `2026-11-22T08:01:05.000Z – here  47.3769075 8.5428065 ±6.5 m`.
    static func line(_ visit: Visit) -> String {
        let departure = visit.departureDate.map { "\($0)" } ?? "here"
        let place = "\(HumanText.number(visit.latitude, 7)) \(HumanText.number(visit.longitude, 7))"
        return "\(visit.arrivalDate) – \(departure)  \(place) ±\(HumanText.number(visit.horizontalAccuracy, 1)) m\n"
    }
}
