import WaymarkProtocol
public import WaymarkLocation

/// A stay at a place, as Core Location's `CLVisit`: the device was still there for 5 minutes
/// or more (docs/monitoring.md, "Visits").
public struct Visit: Hashable, Sendable {
    /// The place's centre's latitude, degrees.
    public let latitude: Double
    /// The place's centre's longitude, degrees.
    public let longitude: Double
    /// The radius, metres, within which the centre lies.
    public let horizontalAccuracy: Double
    /// When the device came to rest there.
    public let arrivalDate: Timestamp
    /// When it left; nil while it is there (Core Location's `distantFuture`).
    public let departureDate: Timestamp?

    init(_ visit: WaymarkLocation.Visit) {
        latitude = visit.latitude
        longitude = visit.longitude
        horizontalAccuracy = visit.horizontalAccuracy
        arrivalDate = visit.arrivalDate
        departureDate = visit.departureDate
    }
}

extension WaymarkAgent {
    /// The device's visit diary, oldest arrival first, as the app may see it (under reduced
    /// accuracy each centre is its cell's). Kept only by a daemon with a store.
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses (`authorizationDenied`).
    public static func visits() async throws -> [Visit] {
        var diary: [Visit] = []
        var after: Timestamp?
        while true {
            guard case .visits(let page) = try await DaemonClient.shared.call(.visits(after: after)) else {
                throw WaymarkError.unexpectedResult(.visits)
            }
            diary += page.visits.map(Visit.init)
            // The diary comes a page at a time: a line holds about 250 of its 1,000 visits.
            guard page.more, let last = page.visits.last else { return diary }
            after = last.arrivalDate
        }
    }
}

/// Visit monitoring, as Core Location's `startMonitoringVisits`: the daemon watches for the
/// app's visits with the receiver mostly off (a fix when motion starts and when it stops,
/// none while still), and each arrival (``Visit/departureDate`` nil) and departure comes in
/// ``visits`` as it happens (an arrival 5 minutes into the stay; both may come late, together).
///
/// ```swift
/// let monitor = try await VisitMonitor()
/// for await visit in monitor.visits { print(visit.arrivalDate, visit.departureDate as Any) }
/// ```
///
/// The daemon keeps the service for the app, across its restarts, until ``stop()``: dropping
/// the monitor only ends its sequence. Under reduced accuracy each centre is its cell's;
/// without authorization nothing comes.
public final class VisitMonitor: Sendable {
    /// The arrivals and departures as they happen; one the daemon kept while the app was away
    /// is acknowledged when the loop takes it, so that it is not delivered again. The sequence
    /// and its loop hold the monitor; it ends when the monitor is stopped, or dropped with no
    /// loop over it.
    public struct Visits: AsyncSequence, Sendable {
        public typealias Element = Visit
        fileprivate let monitor: VisitMonitor

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(monitor: monitor, deliveries: monitor.deliveries.makeAsyncIterator())
        }

        /// Iterates the visits.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let monitor: VisitMonitor
            fileprivate var deliveries: AsyncStream<ClientCore.VisitDelivery>.AsyncIterator

            /// The next visit; `nil` once the monitor is stopped.
            public mutating func next() async -> Visit? {
                guard let delivery = await deliveries.next() else { return nil }
                if let sequence = delivery.sequence {
                    monitor.client.execute({ $0.acknowledgeVisits(through: sequence) }, unavailable: { _ in })
                }
                return delivery.visit
            }
        }
    }

    /// The arrivals and departures (see ``Visits``).
    public var visits: Visits { Visits(monitor: self) }
    private let deliveries: AsyncStream<ClientCore.VisitDelivery>
    private let token: UInt64
    private let client: DaemonClient

    /// Starts the app's visit monitoring (`startMonitoringVisits`).
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses.
    public convenience init() async throws {
        try await self.init(client: .shared)
    }

    init(client: DaemonClient) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: ClientCore.VisitDelivery.self, bufferingPolicy: .bufferingNewest(Self.bufferedVisits))
        let token = client.makeToken()
        self.client = client
        self.token = token
        deliveries = stream
        let pending = PendingReply<Bool>()
        _ = try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<Bool, any Error>) in
            pending.wait(with: waiting)
            client.execute(
                { $0.startVisitMonitor(token, continuation) { started in pending.resume(with: started.map { true }.mapError { $0 }) } },
                unavailable: { pending.resume(with: .failure($0)) })
        }
    }

    /// The visits kept for a loop that has not taken them yet.
    static let bufferedVisits = 100

    /// Stops the app's visit monitoring on the daemon (`stopMonitoringVisits`) and ends ``visits``.
    public func stop() async throws {
        _ = try await client.reply { [token] core, pending in core.stopVisitMonitoring(token, pending) }
    }

    deinit {
        client.execute({ [token] in $0.dropVisitMonitor(token) }, unavailable: { _ in })
    }
}
