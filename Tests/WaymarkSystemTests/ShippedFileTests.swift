import Foundation
import Testing
import WaymarkSystem

@Suite("Shipped files found by short name")
struct ShippedFileTests {
    /// The source tree's own folder, two levels above this file.
    static let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the names of the shipped scenarios are every file in Scenarios/, sorted, without the extension")
    func scenarioNames() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sourceTree.appendingPathComponent("Scenarios").path)
        let expected = files.filter { $0.hasSuffix(".scenario") }.map { String($0.dropLast(".scenario".count)) }.sorted()
        #expect(expected.count > 6)
        #expect(ShippedFile.names(directory: "Scenarios", extension: "scenario") == expected)
    }

    @Test("a short name resolves to its file in the tree above the executable; a directory with no such files names none")
    func resolveAndNone() {
        let path = ShippedFile.resolve("desk-day", directory: "Scenarios", extension: "scenario")
        #expect(path.hasSuffix("/Scenarios/desk-day.scenario") && FileManager.default.fileExists(atPath: path))
        #expect(ShippedFile.names(directory: "Scenarios", extension: "nothing-has-this").isEmpty)
    }
}
