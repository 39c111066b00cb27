import Synchronization

/// A flag one thread clears to stop another's loop.
final class Flag: Sendable {
    private let value = Mutex(true)

    var isSet: Bool { value.withLock { $0 } }

    func clear() {
        value.withLock { $0 = false }
    }
}
