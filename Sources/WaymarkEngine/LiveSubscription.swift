import WaymarkClock
import WaymarkLocation

/// The engine's view of one live-updates subscription.
struct LiveSubscription: Sendable {
    let number: SubscriptionID
    let configuration: LiveConfiguration
    let profile: ConfigurationProfile
    /// What its delivery options let through, and the batch it holds.
    private var delivery: Delivery
    /// Whether it only listens: it never powers the receiver nor pauses.
    var isPassive: Bool { if case .gated(let gate) = delivery { gate.options.isPassive } else { false } }
    /// Paused after its `isStationary` update, until the device moves.
    var isPaused = false
    /// Whether the last thing this subscription was told is "no location".
    var announcedUnavailable = false
    /// Last instant the GPS said the device was faster than the profile's stationary speed,
    /// or moved away from ``anchor``.
    var lastGPSMovement: Instant
    /// Where the device was when the GPS last saw it moving.
    var anchor: Location?

    init(number: SubscriptionID, configuration: LiveConfiguration, options: DeliveryOptions, hotStart: Duration, now: Instant) {
        self.number = number
        self.configuration = configuration
        delivery = options == DeliveryOptions() ? .everyUpdate : .gated(DeliveryGate(options))
        profile = ConfigurationProfile(configuration, hotStart: hotStart)
        lastGPSMovement = now
    }

    /// When its held batch must go out though nothing more comes, if it holds one.
    var deliveryDeadline: Instant? { if case .gated(let gate) = delivery { gate.deadline } else { nil } }

    /// Passes `update` through its delivery options at `now`; returns what to deliver, if anything.
    mutating func offer(_ update: LocationUpdate, at now: Instant) -> DeliveryGate.Output? {
        guard case .gated(var gate) = delivery else { return .single(update) }
        defer { delivery = .gated(gate) }
        return gate.offer(update, at: now)
    }

    /// Delivers its held batch if the batch's timeout has come by `now`.
    mutating func deliverDue(at now: Instant) -> DeliveryGate.Output? {
        guard case .gated(var gate) = delivery else { return nil }
        defer { delivery = .gated(gate) }
        return gate.tick(at: now)
    }

    /// The shortest time it accepts between two locations (its minimum interval; zero: none).
    var minimumInterval: Duration { if case .gated(let gate) = delivery { gate.options.minimumInterval } else { .zero } }

    /// When it accepts its next moving location, if not at once (``DeliveryGate/nextAdmission``).
    var nextWantedFix: Instant? { if case .gated(let gate) = delivery { gate.nextAdmission } else { nil } }

    /// Whether it needs fixes (and may pause): running, and not a passive listener.
    var needsFixes: Bool { !isPaused && !isPassive }

    /// Records what a fix says about movement; returns whether it shows the device moving
    /// (fast enough, or away from where it stopped).
    mutating func observe(_ location: Location, at now: Instant) -> Bool {
        let drift = anchor.map { location.distance(from: $0) } ?? 0
        let allowedDrift = max(10, 2 * location.horizontalAccuracy)
        let stillBelow = max(profile.stationarySpeed, Self.speedNoise(of: location))
        if location.measuredSpeed >= stillBelow || drift > allowedDrift || anchor == nil {
            lastGPSMovement = now
            anchor = location
        }
        return speedShowsMovement(location) || drift > allowedDrift
    }

    /// Whether the speed the receiver measured (not one derived from positions, whose noise is
    /// the positions') shows the device moving: at least the profile's moving speed, and beyond
    /// the receiver's own speed noise.
    func speedShowsMovement(_ location: Location) -> Bool {
        location.measuredSpeed >= max(profile.movingSpeed, Self.speedNoise(of: location))
    }

    /// The speed a still receiver reports by noise alone: three times its speed accuracy (a
    /// still receiver's speed, the length of a noise vector, exceeds 3 σ in about 1 % of fixes).
    /// Below it a speed says nothing, so a poor fix indoors cannot keep a still device "moving".
    static func speedNoise(of location: Location) -> Double {
        3 * max(location.speedAccuracy, 0)
    }

    /// Whether the GPS has shown no movement for the whole dwell.
    func gpsStill(at now: Instant) -> Bool {
        now - lastGPSMovement >= profile.stationaryDwell
    }

    /// When an accelerometer that last saw movement at `lastMovement` will have been calm for
    /// the whole dwell.
    func accelerometerDwellEnd(after lastMovement: Instant) -> Instant {
        lastMovement + profile.stationaryDwell
    }

    /// Whether the device is still for this subscription at `now`: the GPS has shown no
    /// movement for the whole dwell and, on a board with a working accelerometer (which last
    /// saw movement at `lastAccelerometerMovement`), neither has it.
    func isStill(at now: Instant, lastAccelerometerMovement: Instant?) -> Bool {
        guard let lastAccelerometerMovement else { return gpsStill(at: now) }
        return gpsStill(at: now) && now >= accelerometerDwellEnd(after: lastAccelerometerMovement)
    }
}

/// How a subscription's updates are delivered: each as it comes (the default, kept small for
/// the thousands of subscriptions a daemon may hold), or through a boxed ``DeliveryGate``.
private enum Delivery: Sendable {
    case everyUpdate
    indirect case gated(DeliveryGate)
}
