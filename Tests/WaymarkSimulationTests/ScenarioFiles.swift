import Foundation
import WaymarkSimulation

/// The scenarios that ship with the project, read from `Scenarios/`.
enum ScenarioFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static let names = ["desk-day", "commute", "hike", "flight", "demo", "full-day", "holiday", "courier", "road-trip", "tower", "gentle-drive"]

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent("\(name).scenario"), encoding: .utf8)
    }

    static func scenario(_ name: String) throws -> Scenario {
        try ScenarioParser.parse(text(name), file: "\(name).scenario")
    }
}
