import Foundation
import WaymarkSimulation

/// The scenarios the project ships, read from `Scenarios/`.
enum Scenarios {
    static func load(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/\(name).scenario")
        return try ScenarioParser.parse(try String(contentsOf: url, encoding: .utf8), file: url.path)
    }
}
