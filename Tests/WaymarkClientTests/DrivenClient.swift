import WaymarkEventLoop
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem

@testable import Waymark

/// A ``ClientCore`` whose loop runs on the test's thread, only while the test waits.
final class DrivenClient {
    let loop: EventLoop
    let core: ClientCore

    /// A client of the socket at `path`, as app `appID`, whose one-shot requests wait
    /// `answerPatience` at most.
    init(path: String, appID: String? = nil, answerPatience: Duration = .seconds(30)) throws {
        loop = try EventLoop()
        core = ClientCore(loop: loop, paths: { [path] }, trust: .current(), appID: appID, answerPatience: answerPatience)
    }

    /// The daemon's status, asked for as `WaymarkAgent.status()` does.
    func status() async throws -> StatusReport {
        let pending = PendingReply<ReplyResult>()
        core.call(.status, pending)
        guard case .status(let report) = try await run(until: pending) else { throw WaymarkError.unexpectedResult(.status) }
        return report
    }

    /// Runs the loop until `pending` has its result (at most 5 s) and returns it.
    func run<Value>(until pending: PendingReply<Value>) async throws -> Value {
        try run { pending.isResumed }
        return try await withCheckedThrowingContinuation { pending.wait(with: $0) }
    }

    /// Runs the loop until `condition` holds, looking every millisecond; throws after 5 s.
    func run(until condition: @escaping () -> Bool) throws {
        var holds = condition()
        let check = loop.schedule(after: .milliseconds(1), repeating: .milliseconds(1)) { loop in
            holds = condition()
            if holds { loop.stop() }
        }
        let deadline = loop.schedule(after: .seconds(5)) { $0.stop() }
        defer {
            loop.cancel(check)
            loop.cancel(deadline)
        }
        if !holds { try loop.run() }
        guard holds else { throw TimedOut() }
    }

    /// Runs the loop for `duration`.
    func run(for duration: Duration) throws {
        let end = loop.schedule(after: duration) { $0.stop() }
        defer { loop.cancel(end) }
        try loop.run()
    }
}
