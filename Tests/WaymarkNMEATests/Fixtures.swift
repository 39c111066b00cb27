import Foundation

/// The gpsd regression captures in `Tests/Fixtures/gpsd` (BSD-2-Clause, see COPYING.gpsd).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd")

    /// The names of every capture, sorted.
    static func captureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".log") }.sorted()
    }

    /// One capture's bytes.
    static func capture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Every capture concatenated.
    static func allCaptures() throws -> [UInt8] {
        try captureNames().flatMap { try capture($0) }
    }
}
