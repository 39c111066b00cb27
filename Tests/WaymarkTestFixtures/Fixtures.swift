package import Foundation

/// The gpsd regression captures in `Tests/Fixtures/gpsd` (BSD-2-Clause, see COPYING.gpsd).
package enum Fixtures {
    package static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd")

    /// The names of every capture, sorted.
    package static func captureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".log") }.sorted()
    }

    /// One capture's bytes.
    package static func capture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Every capture concatenated.
    package static func allCaptures() throws -> [UInt8] {
        try captureNames().flatMap { try capture($0) }
    }
}
