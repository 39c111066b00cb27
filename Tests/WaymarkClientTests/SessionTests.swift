import Testing
import Waymark
import WaymarkAuthorization
import WaymarkDaemon
import WaymarkEngine
import WaymarkServerTestSupport
import WaymarkSystem

extension ClientLibraryTests.ClientTests {
    /// Every process of this uid interactive: in use while connected.
    static func interactive() throws -> PolicySet {
        let text = "[[app]]\nuid = \(CurrentProcess.effectiveUserID)\ninteractive = true\n"
        return try PolicySet(files: [(path: "interactive.toml", bytes: Array(text.utf8))])
    }

    @Test func aBackgroundActivitySessionOutOfUseHearsWhyItIsRefused() async throws {
        try await withDaemon(at: Self.socket) { _ in
            let (refusals, continuation) = AsyncStream.makeStream(of: WaymarkError.self)
            let session = BackgroundActivitySession { continuation.yield($0) }
            var iterator = refusals.makeAsyncIterator()
            guard case .refused(code: "insufficientlyInUse", _)? = await iterator.next() else {
                Issue.record("not refused as insufficiently in use")
                return
            }
            session.invalidate()
        }
    }

    @Test func aBackgroundActivitySessionKeepsTheAppInUseUntilInvalidated() async throws {
        try await withDaemon(at: Self.socket, configure: { $0.policies = try! Self.interactive() }) { daemon in
            let session = BackgroundActivitySession { Issue.record("refused: \($0)") }
            try await waitUntil { await daemon.onLoop { $0.inUseEvidence(of: 1)?.contains(.backgroundActivitySession) == true } }
            session.invalidate()
            try await waitUntil { await daemon.onLoop { $0.inUseEvidence(of: 1) == .interactiveConnection } }
        }
    }

    @Test func anInUseDelegationHandsATokenThatItsGiverCannotAccept() async throws {
        try await withDaemon(at: Self.socket, configure: { $0.policies = try! Self.interactive() }) { _ in
            let delegation = try await InUseDelegation.start()
            #expect(delegation.token.utf8.count == 32)
            await #expect(throws: WaymarkError.self) { try await InUseDelegation.accept(token: delegation.token) }
            delegation.invalidate()
        }
    }
}
