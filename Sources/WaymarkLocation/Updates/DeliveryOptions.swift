/// How a live-updates subscription wants its locations delivered, beyond its configuration:
/// Core Location's `distanceFilter`, a minimum interval, deferred (batched) delivery and a
/// passive listener. The rules are in `docs/semantics.md`.
public struct DeliveryOptions: Hashable, Sendable {
    /// Metres the device must be from the last delivered location before another location is
    /// delivered, as Core Location's `distanceFilter`; 0 delivers every one.
    public var distanceFilter: Double
    /// The shortest time between two delivered locations; zero delivers every one.
    public var minimumInterval: Duration
    /// Deferred delivery: locations held and delivered together, if set.
    public var batching: Batching?
    /// A passive listener never powers the receiver: it gets the fixes others cause.
    public var isPassive: Bool

    /// Creates options; a negative or not-a-number distance or a negative interval means none.
    public init(distanceFilter: Double = 0, minimumInterval: Duration = .zero, batching: Batching? = nil, isPassive: Bool = false) {
        self.distanceFilter = distanceFilter >= 0 ? distanceFilter : 0
        self.minimumInterval = max(minimumInterval, .zero)
        self.batching = batching
        self.isPassive = isPassive
    }
}

/// Deferred delivery, as Core Location's `allowDeferredLocationUpdates(untilTraveled:timeout:)`:
/// locations are held until the device has travelled `distance` metres along them or the
/// oldest held one is `timeout` old, then delivered in one message.
public struct Batching: Hashable, Sendable {
    /// The most locations one batch holds; the newest are kept and the rest counted.
    public static let maximumCapacity = 1_000
    /// How many updates a batch holds unless told otherwise.
    public static let defaultCapacity = 100

    /// Metres travelled (summed between held locations) that end a batch; `nil`: time alone.
    public var distance: Double?
    /// How long the oldest held update waits at most.
    public var timeout: Duration
    /// How many updates a batch holds, 1 ... ``maximumCapacity``.
    public var capacity: Int

    /// Creates a batching policy; the capacity is clamped to 1 ... ``maximumCapacity``, a
    /// distance that is not a positive number is none, a negative timeout is zero.
    public init(distance: Double? = nil, timeout: Duration, capacity: Int = defaultCapacity) {
        self.distance = distance.flatMap { $0 > 0 ? $0 : nil }
        self.timeout = max(timeout, .zero)
        self.capacity = min(max(capacity, 1), Self.maximumCapacity)
    }
}
