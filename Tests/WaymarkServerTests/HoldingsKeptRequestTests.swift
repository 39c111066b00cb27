import Testing
import WaymarkAuthorization
@testable import WaymarkDaemon
import WaymarkEngine
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// The server's book (`Holdings`) keeping an app's pending requests, on an injected clock
/// (docs/semantics.md, "Consumers that come and go"): what the engine runs on, what a re-take
/// answers, when what is not re-taken ends and its demand is released.
@Suite("Holdings: kept requests on an injected clock")
struct HoldingsKeptRequestTests {
    static let app = AppIdentity(.unit, "tracker.service")
    static let window = Duration.seconds(5)
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    /// A book where client 1 of the app asked `KeptRequestTests.asked` (request 1, its id 7)
    /// and left at ``start``.
    static func leftWithARequest() -> Holdings {
        var holdings = Holdings()
        let request = holdings.addRequest(for: 1, message: .number(7), parameters: KeptRequestTests.asked)
        #expect(request == 1)
        let ended = keep(1, in: &holdings, at: start)
        #expect(ended.requests.isEmpty && ended.subscriptions.isEmpty)
        return holdings
    }

    static func keep(_ client: ClientID, in holdings: inout Holdings, at now: MonotonicInstant) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) {
        holdings.keep(
            client, as: app, relaunch: nil, now: now, window: window, updateCapacity: 4, maximumSubscriptions: 8,
            maximumRequests: 16, maximumApps: 64)
    }

    @Test func aKeptRequestStaysPendingForTheEngineAndEndsAtTheWindowItsDemandReleased() {
        var holdings = Self.leftWithARequest()
        // The engine runs it on: pending, and no connected client holds it.
        #expect(holdings.requestCount == 1)
        #expect(holdings.takeRequest(1) == nil)
        #expect(holdings.earliestDeadline == Self.start + Self.window)
        let early = holdings.expire(at: Self.start + Self.window - .nanoseconds(1))
        #expect(early.requests.isEmpty)
        let due = holdings.expire(at: Self.start + Self.window)
        #expect(due.requests == [1])
        #expect(holdings.requestCount == 0)
        #expect(holdings.keptAppCount == 0)
    }

    @Test func theAnswerWhileAwayIsKeptAndReTakenOnceUnderTheNewID() {
        var holdings = Self.leftWithARequest()
        #expect(holdings.keep(.success(KeptRequestTests.fix), for: 1) == Self.app)
        // Answered: no longer pending at the engine, nothing left to release at the window.
        #expect(holdings.requestCount == 0)
        #expect(holdings.keep(.failure(.locationUnknown), for: 1) == nil)
        // Back 3 s later: the window counts from the hello.
        _ = holdings.rejoined(Self.app, now: Self.start + .seconds(3), window: Self.window)
        #expect(holdings.earliestDeadline == Self.start + .seconds(8))
        #expect(holdings.retakeRequest(of: Self.app, KeptRequestTests.other, by: 2, message: .number(1)) == nil)
        let retaken = holdings.retakeRequest(of: Self.app, KeptRequestTests.asked, by: 2, message: .number(1))
        #expect(retaken == KeptRequests.Entry(request: 1, parameters: KeptRequestTests.asked, answer: .success(KeptRequestTests.fix)))
        // The re-taker holds it under its own id until the server answers it: exactly once.
        #expect(holdings.takeRequest(1).map { [$0.client.rawValue: $0.message] } == [2: .number(1)])
        #expect(holdings.takeRequest(1) == nil)
        #expect(holdings.retakeRequest(of: Self.app, KeptRequestTests.asked, by: 2, message: .number(2)) == nil)
        #expect(holdings.keptAppCount == 0)
    }

    @Test func aPendingRequestReTakenAcrossTheGapKeepsItsIdentityForTheEngine() {
        var holdings = Self.leftWithARequest()
        _ = holdings.rejoined(Self.app, now: Self.start + .seconds(2), window: Self.window)
        let retaken = holdings.retakeRequest(of: Self.app, KeptRequestTests.asked, by: 2, message: .string("again"))
        // The same request the engine has run since it was first asked: its deadline stands.
        #expect(retaken == KeptRequests.Entry(request: 1, parameters: KeptRequestTests.asked))
        #expect(holdings.requestCount == 1)
        // Nothing ends at the window any more: it is the connected client's.
        #expect(holdings.expire(at: Self.start + .seconds(60)).requests.isEmpty)
        // Left again before the answer: kept again, a new window from then.
        let ended = Self.keep(2, in: &holdings, at: Self.start + .seconds(10))
        #expect(ended.requests.isEmpty)
        #expect(holdings.earliestDeadline == Self.start + .seconds(15))
    }
}
