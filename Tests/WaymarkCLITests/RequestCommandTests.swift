import Testing

@Suite("waymark request")
struct RequestCommandTests {
    @Test("the timeout's range is the protocol's (docs/protocol.md: more than 0, at most 600 seconds)", arguments: ["601", "0", "3600", "-1", "nan"])
    func timeoutOutsideTheProtocolsRange(timeout: String) throws {
        let result = try runWaymark(["request", "--timeout=\(timeout)"])
        #expect(result.status != 0)
        #expect(result.error.contains("--timeout must be more than 0 and at most 600 seconds"))
    }
}
