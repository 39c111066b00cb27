import Testing

@Suite("waymark request")
struct RequestCommandTests {
    @Test("the timeout's range is the protocol's (docs/protocol.md: from 0.001 to 600 seconds; 1e-300 reached the daemon as 0)", arguments: ["601", "0", "3600", "-1", "nan", "1e-300", "0.0009"])
    func timeoutOutsideTheProtocolsRange(timeout: String) throws {
        let result = try runWaymark(["request", "--timeout=\(timeout)"])
        #expect(result.status != 0)
        #expect(result.error.contains("--timeout must be from 0.001 to 600 seconds"))
    }

    @Test("an accuracy that JSON cannot carry is refused (inf was sent as null, read as 0: the best)", arguments: ["inf", "1e309", "-1", "nan"])
    func accuracyOutsideTheProtocolsRange(accuracy: String) throws {
        let result = try runWaymark(["request", "--accuracy=\(accuracy)"])
        #expect(result.status != 0)
        #expect(result.error.contains("--accuracy must be a finite number of metres, at least 0"))
    }
}
