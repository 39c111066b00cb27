import WaymarkProtocol

/// A named set of conditions the daemon watches for the app, connected or not: Core
/// Location's `CLMonitor`. Conditions persist in the daemon (across its restarts when it
/// keeps a store); each change of a condition's state is an ``Event`` in ``events``, and the
/// events of the time the app was away come first when it opens the monitor again, each once.
///
/// ```swift
/// let monitor = try await Monitor(named: "places")
/// try await monitor.add(Monitor.CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 150),
///                       identifier: "home")
/// for try await event in monitor.events {
///     print(event.identifier, event.state)
/// }
/// ```
///
/// An app watches at most 20 conditions across its monitors; more are kept `unmonitored` with
/// ``Event/conditionLimitExceeded``. One `Monitor` per name at a time in a process; dropping it
/// closes it (its conditions stay).
public final class Monitor: Sendable {
    /// A circle on the ground (`CLMonitor.CircularGeographicCondition`).
    public struct CircularGeographicCondition: Hashable, Sendable {
        /// The centre's latitude, degrees (−90 … 90).
        public var latitude: Double
        /// The centre's longitude, degrees (−180 … 180).
        public var longitude: Double
        /// The radius, metres (1 m … 100 km).
        public var radius: Double

        /// A circle of `radius` metres around (`latitude`, `longitude`).
        public init(latitude: Double, longitude: Double, radius: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    /// A Bluetooth beacon's identity (`CLMonitor.BeaconIdentityCondition`): its UUID, and
    /// optionally its major value and then its minor value. Waymark has no Bluetooth ranging:
    /// such a condition is kept `unmonitored`, its event saying ``Event/conditionUnsupported``.
    public struct BeaconIdentityCondition: Hashable, Sendable {
        /// The UUID, upper case (`E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`).
        public let uuid: String
        /// The major value, if the condition names one.
        public let major: UInt16?
        /// The minor value, if the condition names one.
        public let minor: UInt16?

        /// The beacons of `uuid` (8-4-4-4-12 hexadecimal digits, any case); nil if it is not a UUID.
        public init?(uuid: String) {
            self.init(uuid: uuid, major: nil, minor: nil)
        }

        /// The beacons of `uuid` with the major value `major`; nil if `uuid` is not a UUID.
        public init?(uuid: String, major: UInt16) {
            self.init(uuid: uuid, major: major, minor: nil)
        }

        /// The beacon of `uuid`, `major` and `minor`; nil if `uuid` is not a UUID.
        public init?(uuid: String, major: UInt16, minor: UInt16) {
            self.init(uuid: uuid, major: Optional(major), minor: Optional(minor))
        }

        private init?(uuid: String, major: UInt16?, minor: UInt16?) {
            guard let identity = WaymarkProtocol.BeaconIdentityCondition(uuid: uuid, major: major, minor: minor) else { return nil }
            self.init(identity)
        }

        init(_ identity: WaymarkProtocol.BeaconIdentityCondition) {
            uuid = identity.uuid
            major = identity.major
            minor = identity.minor
        }
    }

    /// What a record's condition watches (`CLMonitor.Record.condition`).
    public enum Condition: Hashable, Sendable {
        /// A circle, evaluated on the device's fixes.
        case circularGeographic(CircularGeographicCondition)
        /// A beacon condition, kept `unmonitored` (the daemon keeps its kind, not its identity).
        case beaconIdentity
        /// A kind this library does not know (a newer daemon's), by its protocol type.
        case unsupported(type: String)

        init(_ condition: WaymarkProtocol.Condition) {
            switch condition {
            case .circularGeographic(let circle):
                self = .circularGeographic(CircularGeographicCondition(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius))
            case .beaconIdentity: self = .beaconIdentity
            case .unsupported(let type): self = .unsupported(type: type)
            }
        }
    }

    /// A change of a condition's state, or a diagnostic about it (`CLMonitor.Event`).
    public struct Event: Hashable, Sendable {
        /// A condition's state (`CLMonitor.Event.State`).
        public enum State: String, Hashable, Sendable, CaseIterable {
            /// Not known yet.
            case unknown
            /// Inside the circle.
            case satisfied
            /// Outside the circle.
            case unsatisfied
            /// Not watched; a diagnostic says why.
            case unmonitored
        }

        /// The condition's identifier.
        public let identifier: String
        /// Its state.
        public let state: State
        /// When the state was reached.
        public let date: Timestamp
        /// The app is authorized approximate location only: nothing is decided.
        public let accuracyLimited: Bool
        /// The app watches 20 conditions already: this one is not watched.
        public let conditionLimitExceeded: Bool
        /// The kind of condition cannot be watched here.
        public let conditionUnsupported: Bool
        /// The daemon could not keep the event: it comes once, and not again after a restart.
        public let persistenceUnavailable: Bool

        init(_ event: WaymarkProtocol.MonitorEvent) {
            identifier = event.identifier
            state = State(rawValue: event.state.rawValue) ?? .unknown
            date = event.date
            accuracyLimited = event.diagnostics.contains("accuracyLimited")
            conditionLimitExceeded = event.diagnostics.contains("conditionLimitExceeded")
            conditionUnsupported = event.diagnostics.contains("conditionUnsupported")
            persistenceUnavailable = event.diagnostics.contains("persistenceUnavailable")
        }
    }

    /// A condition and its last event (`CLMonitor.Record`).
    public struct Record: Hashable, Sendable {
        /// The condition.
        public let condition: Condition
        /// Its last event.
        public let lastEvent: Event
    }

    /// The monitor's events as they happen; each is acknowledged to the daemon when the loop
    /// takes it, so that it is not delivered again. The sequence and its loop hold the
    /// monitor open (`for try await event in try await Monitor(named: "places").events` works);
    /// it ends when the monitor is closed.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = Event
        fileprivate let unacknowledged: UnacknowledgedEvents

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(unacknowledged: unacknowledged.makeAsyncIterator())
        }

        /// Iterates the events.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var unacknowledged: UnacknowledgedEvents.AsyncIterator

            /// The next event; `nil` once the monitor is closed.
            public mutating func next() async throws -> Event? {
                guard let pending = try await unacknowledged.next() else { return nil }
                if let sequence = pending.sequence { unacknowledged.monitor.acknowledge(through: sequence) }
                return pending.event
            }
        }
    }

    /// The monitor's name.
    public let name: String
    /// Its events (see ``Events``).
    public var events: Events { Events(unacknowledged: unacknowledgedEvents) }
    private let deliveries: AsyncThrowingStream<ClientCore.MonitorDelivery, any Error>
    private let token: UInt64
    private let client: DaemonClient

    /// Opens the monitor `name` (1 … 128 bytes, no control characters) of the app, creating it on first use
    /// (`CLMonitor(_:)`).
    public convenience init(named name: String) async throws {
        try await self.init(named: name, client: .shared)
    }

    init(named name: String, client: DaemonClient) async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ClientCore.MonitorDelivery.self, bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        let token = client.makeToken()
        self.name = name
        self.client = client
        self.token = token
        deliveries = stream
        let pending = PendingReply<Bool>()
        _ = try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<Bool, any Error>) in
            pending.wait(with: waiting)
            client.execute(
                { $0.openMonitor(token, name: name, continuation) { opened in pending.resume(with: opened.map { true }.mapError { $0 }) } },
                unavailable: { pending.resume(with: .failure($0)) })
        }
    }

    /// An event and the sequence that acknowledges it (`nil` when the daemon could not keep it).
    package struct UnacknowledgedEvent: Sendable {
        /// The event.
        package let event: Event
        /// What ``acknowledge(through:)`` takes once the event is kept.
        package let sequence: UInt64?
    }

    /// The monitor's events without their acknowledgement, which is left to the caller
    /// (``acknowledge(through:)``) once it has kept them: the MQTT bridge acknowledges an event
    /// only when its outbox committed it. Iterated instead of ``events``, never beside it.
    package var unacknowledgedEvents: UnacknowledgedEvents { UnacknowledgedEvents(monitor: self) }

    /// The sequence of ``unacknowledgedEvents``.
    package struct UnacknowledgedEvents: AsyncSequence, Sendable {
        package typealias Element = UnacknowledgedEvent
        fileprivate let monitor: Monitor

        package func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(monitor: monitor, deliveries: monitor.deliveries.makeAsyncIterator())
        }

        /// Iterates the events (holding the monitor open).
        package struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let monitor: Monitor
            fileprivate var deliveries: AsyncThrowingStream<ClientCore.MonitorDelivery, any Error>.AsyncIterator

            /// The next event; `nil` once the monitor is closed.
            package mutating func next() async throws -> UnacknowledgedEvent? {
                guard let delivery = try await deliveries.next() else { return nil }
                return UnacknowledgedEvent(event: Event(delivery.event), sequence: delivery.sequence)
            }
        }
    }

    /// Tells the daemon that the events up to `sequence` are kept: it sends them no more.
    package func acknowledge(through sequence: UInt64) {
        client.execute({ [token] in $0.acknowledgeMonitorEvents(token, through: sequence) }, unavailable: { _ in })
    }

    /// The events kept for a loop that has not taken them yet: the daemon's queue of one app.
    static let bufferedEvents = 100

    /// Adds `condition` under `identifier` (1 … 128 bytes, no control characters), replacing a condition of that
    /// identifier; its state is `assuming` until a fix decides (`CLMonitor.add(_:identifier:assuming:)`).
    public func add(_ condition: CircularGeographicCondition, identifier: String, assuming: Event.State = .unknown) async throws {
        let circle = WaymarkProtocol.CircularGeographicCondition(latitude: condition.latitude, longitude: condition.longitude, radius: condition.radius)
        try await add(.circularGeographic(circle), identifier: identifier, assuming: assuming)
    }

    /// Adds the beacon `condition` under `identifier`, replacing a condition of that identifier.
    /// Waymark cannot range beacons: the condition is kept `unmonitored`, and its event, which
    /// follows, says ``Event/conditionUnsupported`` (as Core Location says of a condition it
    /// cannot watch); it takes no place among the app's 20.
    public func add(_ condition: BeaconIdentityCondition, identifier: String, assuming: Event.State = .unknown) async throws {
        let identity = WaymarkProtocol.BeaconIdentityCondition(uuid: condition.uuid, major: condition.major, minor: condition.minor)
        try await add(.beaconIdentity(identity), identifier: identifier, assuming: assuming)
    }

    private func add(_ condition: WaymarkProtocol.Condition, identifier: String, assuming: Event.State) async throws {
        _ = try await call { monitor in
            Operation.addCondition(ConditionRequest(
                monitor: monitor, identifier: identifier, condition: condition,
                assuming: assuming == .unknown ? nil : MonitorState(rawValue: assuming.rawValue)))
        }
    }

    /// Removes the condition `identifier`, if there is one.
    public func remove(_ identifier: String) async throws {
        _ = try await call { .removeCondition(monitor: $0, identifier: identifier) }
    }

    /// The record of the condition `identifier`, or nil when there is none.
    public func record(for identifier: String) async throws -> Record? {
        guard case .record(let record) = try await call({ .monitorRecord(monitor: $0, identifier: identifier) }), let record else { return nil }
        return Record(condition: Condition(record.condition), lastEvent: Event(record.lastEvent))
    }

    /// The identifiers of the monitor's conditions, in the order they were added.
    public var identifiers: [String] {
        get async throws {
            guard case .identifiers(let identifiers) = try await call({ .monitorIdentifiers(monitor: $0) }) else { return [] }
            return identifiers
        }
    }

    /// Closes the monitor: its events end (its conditions stay in the daemon).
    public func close() {
        client.execute({ [token] in $0.closeMonitor(token) }, unavailable: { _ in })
    }

    deinit { close() }

    private func call(_ operation: @escaping @Sendable (UInt64) -> Operation) async throws -> ReplyResult {
        try await client.reply { [token] core, pending in core.monitorCall(token, operation, pending) }
    }
}
