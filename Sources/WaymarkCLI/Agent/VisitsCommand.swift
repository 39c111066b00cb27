import ArgumentParser
import Waymark

/// `waymark visits`: the device's visit diary (`CLVisit`s).
struct VisitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "Print the places the device stayed at for 5 minutes or more, oldest first.",
        discussion: """
            One line per visit: arrival, departure (or "here" while it lasts), the place's \
            centre and the radius it lies within. Kept by a daemon with a store (--store); \
            under reduced accuracy each centre is its cell's.
            """
    )

    func run() async throws {
        var lines = ""
        for visit in try await WaymarkAgent.visits() {
            let departure = visit.departureDate.map { "\($0)" } ?? "here"
            lines += "\(visit.arrivalDate) – \(departure)  \(visit.latitude) \(visit.longitude) ±\(visit.horizontalAccuracy) m\n"
        }
        try StandardOutput().write(Array(lines.utf8))
    }
}
