import Testing
import WaymarkEventLoop
import WaymarkSystem

@Suite(.timeLimit(.minutes(1)))
struct PseudoTerminalLoopTests {
    @Test func bytesWrittenToThePrimaryReachTheSecondaryHandler() async throws {
        let message = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,*47\r\n".utf8)
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let received = Locked<[UInt8]>([])
        let loop = try EventLoop()
        try loop.register(pty.secondary, for: .readable) { loop, _ in
            var buffer = [UInt8](repeating: 0, count: 16)
            while let count = try? buffer.withUnsafeMutableBytes({ try pty.secondary.read(into: $0) }), count > 0 {
                received.mutate { $0 += buffer[..<count] }
            }
            if received.value.count >= message.count { loop.stop() }
        }
        async let finished: Void = runOnOwnThread(loop)

        for chunk in stride(from: 0, to: message.count, by: 7) {
            let bytes = message[chunk..<min(chunk + 7, message.count)]
            let written = try bytes.withUnsafeBytes { try pty.primary.write($0) }
            #expect(written == bytes.count)
        }

        try await finished
        #expect(received.value == message)
    }
}
