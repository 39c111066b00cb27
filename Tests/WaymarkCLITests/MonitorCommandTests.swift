import Testing

@Suite("waymark monitor add")
struct MonitorCommandTests {
    /// No daemon listens here: a command that parsed goes on to find it unavailable.
    private let noDaemon = ["WAYMARK_SOCKET": "/nonexistent/waymark.sock"]

    @Test(
        "negative coordinates (west, south) are numbers, not options (\"-8\" was taken for one: \"Missing expected argument\")",
        arguments: [["47.3769", "-8.5417", "150"], ["-33.8688", "151.2093", "100", "--assuming", "satisfied"], ["-33.8", "-70.6", "50"]])
    func negativeCoordinates(circle: [String]) throws {
        let result = try runWaymark(["monitor", "add", "places", "here"] + circle, environment: noDaemon)
        #expect(result.error.contains("the Waymark daemon is unavailable"), "\(result.error)")
    }

    @Test("anything but three numbers for the circle is refused with what was given", arguments: [
        ["47", "8"], ["47", "8", "x"], ["47", "8", "100", "--asuming", "satisfied"],
        // Not decimal numbers, which Double(_:) reads all the same: the daemon was sent them and refused "missing".
        ["nan", "0", "100"], ["1e400", "0", "100"], ["0", "0", "inf"], ["0x10", "0", "100"],
    ])
    func notACircle(circle: [String]) throws {
        let result = try runWaymark(["monitor", "add", "places", "here"] + circle, environment: noDaemon)
        #expect(result.status == 64)
        #expect(result.error.contains("three numbers, as 47.3769 -8.5417 150 (got \(circle.joined(separator: " ")))"))
    }
}
