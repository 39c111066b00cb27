public import WaymarkLocation
import WaymarkProtocol

extension LocationUpdate {
    /// Live location updates from the Waymark daemon, as Core Location's
    /// `CLLocationUpdate.liveUpdates(_:)`:
    ///
    /// ```swift
    /// for try await update in LocationUpdate.liveUpdates(.fitness) {
    ///     if let location = update.location { show(location) }
    ///     if update.isStationary { break }
    /// }
    /// ```
    ///
    /// Updates start when iteration starts and stop when the loop is left, the task is
    /// cancelled, or a `first(where:)` finds its match. While the daemon is unreachable an
    /// update without a location and with ``Diagnostics/daemonUnavailable`` comes, and the
    /// updates continue once the library has reconnected. `options` filter the locations (a
    /// distance filter, a minimum interval), defer them (`batching`, as Core Location's
    /// `allowDeferredLocationUpdates(untilTraveled:timeout:)`: the sequence yields nothing
    /// until a batch is delivered, then its updates in the order they were taken), or make the
    /// subscription a passive listener.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default, options: DeliveryOptions = DeliveryOptions()) -> Updates {
        Updates(configuration: configuration, options: options)
    }

    /// The asynchronous sequence of ``LocationUpdate/liveUpdates(_:options:)``.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = LocationUpdate

        /// The configuration the updates are for.
        public let configuration: LiveConfiguration
        /// How the locations are delivered.
        public let options: DeliveryOptions

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(storage: LiveUpdatesStorage(configuration: configuration, options: options, client: .shared))
        }

        /// Iterates one subscription; dropping it stops the subscription.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private let storage: LiveUpdatesStorage
            private var updates: AsyncThrowingStream<LocationUpdate, any Error>.AsyncIterator

            init(storage: LiveUpdatesStorage) {
                self.storage = storage
                updates = storage.stream.makeAsyncIterator()
            }

            /// The next update; `nil` once the subscription has ended (the task was cancelled).
            public mutating func next() async throws -> LocationUpdate? {
                try await updates.next()
            }
        }
    }
}

/// One subscription's updates: started in the daemon when created, stopped when the consumer
/// is cancelled or the storage is dropped (the `for` loop was left).
final class LiveUpdatesStorage: Sendable {
    let stream: AsyncThrowingStream<LocationUpdate, any Error>
    private let token: UInt64
    private let client: DaemonClient

    init(configuration: LiveConfiguration, options: DeliveryOptions = DeliveryOptions(), client: DaemonClient) {
        // Room for a whole batch beside the updates an ordinary subscription may fall behind by.
        let buffered = 64 + (options.batching?.capacity ?? 0)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LocationUpdate.self, bufferingPolicy: .bufferingNewest(buffered))
        let token = client.makeToken()
        continuation.onTermination = { _ in client.execute({ $0.unsubscribe(token) }, unavailable: { _ in }) }
        client.execute({ $0.subscribe(token, configuration, options, continuation) }, unavailable: continuation.finishUnavailable)
        self.stream = stream
        self.token = token
        self.client = client
    }

    deinit {
        client.execute({ [token] in $0.unsubscribe(token) }, unavailable: { _ in })
    }
}
