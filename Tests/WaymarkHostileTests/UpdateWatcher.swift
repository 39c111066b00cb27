import Foundation
import Synchronization
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem
import WaymarkLocation

/// A well-behaved client on a thread of its own: one `default` subscription, read at once,
/// every update's arrival recorded, so a test can ask for the longest wait between updates
/// while other clients misbehave.
final class UpdateWatcher: Sendable {
    private let arrivals = Mutex<[MonotonicInstant]>([])
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ daemon: Waymarkd) throws {
        let client = try daemon.connect()
        try client.hello(appID: "org.example.watcher")
        _ = try client.request(.startLiveUpdates(.default))
        nonisolated(unsafe) let reader = client
        Thread { [self] in
            while !stopped.withLock({ $0 }) {
                guard case .event(.update) = try? reader.readMessage(seconds: 1) else { continue }
                arrivals.withLock { $0.append(.now) }
            }
            finished.signal()
        }.start()
    }

    /// Waits (up to 30 s) until updates flow.
    func waitForUpdates() async throws {
        for _ in 0..<300 {
            if arrivals.withLock({ $0.count }) >= 5 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TimedOut()
    }

    /// The longest time without an update between `start` and now.
    func longestGap(since start: MonotonicInstant) -> Duration {
        let now = MonotonicInstant.now
        let times = [start] + arrivals.withLock { $0.filter { $0 > start } } + [now]
        return zip(times, times.dropFirst()).map { $0.duration(to: $1) }.max() ?? .zero
    }

    /// Updates received so far.
    var count: Int { arrivals.withLock { $0.count } }

    /// Stops reading and waits for the thread.
    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
    }
}
