package import WaymarkClock
package import WaymarkFix
package import WaymarkLocation
package import WaymarkMotion

/// Something that happened, handed to the engine with the instant it happened.
package enum EngineEvent: Sendable {
    /// The receiver completed an epoch (with or without a position).
    case fix(Fix)
    /// The accelerometer's motion-wake interrupt fired.
    case motionInterrupt
    /// A window of accelerometer samples taken at `rate` Hz, as asked with
    /// ``AccelerometerCommand/sample(rate:wake:)``.
    case accelerometerSamples([AccelerationSample], rate: Double)
    /// The accelerometer failed (I2C errors beyond retries); stationary detection falls back
    /// to the GPS alone.
    case accelerometerFailed(reason: String)
    /// The accelerometer answers again after a failure: stationary detection returns to it.
    case accelerometerRecovered
    /// The receiver's byte stream failed or went silent (unplugged, wrong baud, dead).
    case receiverLost(reason: String)
    /// A client starts live updates, delivered as its options say.
    case startLiveUpdates(SubscriptionID, LiveConfiguration, DeliveryOptions = DeliveryOptions())
    /// A client stops live updates (or went away).
    case stopLiveUpdates(SubscriptionID)
    /// A client asks for one location.
    case requestLocation(RequestID, desiredAccuracy: Double, timeout: Duration)
    /// A client withdrew its request, or went away before it was answered.
    case cancelRequest(RequestID)
    /// Clients went away: their subscriptions and requests end together, in one pass
    /// however many there are.
    case release(subscriptions: Set<SubscriptionID>, requests: Set<RequestID>)
    /// A consumer (the geofence monitors) needs a fix at or after this instant; nil: none.
    /// Replaces the previous demand (``Engine/fixDemand``).
    case fixNeeded(at: Instant?)
    /// Whether the demand's consumer needs to know when the device stops (visit monitoring):
    /// then, after a fix in motion, a calm accelerometer asks one fix (``Engine``'s rest
    /// check). Geofences need not: no border is crossed by stopping.
    case restChecks(Bool)
    /// A deadline the engine asked for (``Engine/nextDeadline``) has come.
    case tick
}

/// What the accelerometer should do.
package enum AccelerometerCommand: Hashable, Sendable {
    /// Stream samples at `rate` Hz (the chip in normal mode), delivered every `handOver`
    /// (sooner if the chip's FIFO would fill first); with `wake`, the chip's motion-wake
    /// interrupt stays armed at `wake` mg meanwhile (every supported chip raises it while it
    /// measures), so that a paused device watched for a gentle push still wakes at once on a
    /// sharp one. A glance at a paused device hands its half second over at once.
    case sample(rate: Double, wake: Double? = nil, handOver: Duration = AccelerometerCommand.handOverInterval)
    /// Stop streaming; program the chip's motion-wake interrupt at `threshold` mg (low power).
    case armMotionWake(threshold: Double)
    /// Nothing is needed from it.
    case idle

    /// How often a source hands the samples over while the chip streams: the engine judges
    /// windows of any length, and a push is seen within this of the moment it shows.
    package static let handOverInterval = Duration.milliseconds(100)
}

/// What the engine asks the world to do.
package enum EngineAction: Hashable, Sendable {
    /// Deliver an update to a live subscription.
    case deliver(LocationUpdate, to: SubscriptionID)
    /// Deliver a batch of updates (oldest first) in one message to a subscription with
    /// deferred delivery; `overflow` older ones did not fit and were dropped.
    case deliverBatch([LocationUpdate], overflow: Int, to: SubscriptionID)
    /// Answer a location request.
    case complete(RequestID, Result<Location, LocationError>)
    /// Power the receiver up or down (with the board's strategy), for the given reason.
    case receiverPower(on: Bool, reason: String)
    /// Change what the accelerometer does.
    case accelerometer(AccelerometerCommand)
}
