package import WaymarkClock

/// When the bridge connects and what it publishes, from events on an injected timeline:
/// one outbox message at a time is on its way (QoS 1), the oldest first; a PUBACK for it
/// lets the outbox delete it and send the next; a lost link sends it again after reconnecting.
///
/// One message in flight keeps the order strict even across a cut: MQTT may deliver a QoS 1
/// message twice, and then the repeat comes right after the original, never an older location
/// after a newer one (which a map would show as a jump back).
package struct Delivery: Sendable {
    /// Where the link to the broker stands.
    package enum Link: Hashable, Sendable {
        /// Not connected; the next attempt is due at the instant.
        case waiting(until: Instant)
        /// A connection was started at the instant and its CONNACK has not come.
        case connecting(since: Instant)
        /// Connected; the outbox message on its way, with the MQTT message id it went with.
        case connected(inFlight: InFlight?)
    }

    /// The outbox message awaiting its PUBACK.
    package struct InFlight: Hashable, Sendable {
        /// Its outbox sequence number.
        package var sequence: Int64
        /// The MQTT message id it was published with.
        package var messageID: Int32
    }

    /// Where the link stands.
    package private(set) var link: Link
    /// How long a CONNACK may take before the attempt counts as failed.
    package let connectPatience: Duration
    private var backoff = ReconnectBackoff()

    /// A delivery that connects at once (at `now`) and gives a connection `connectPatience`.
    package init(now: Instant, connectPatience: Duration) {
        link = .waiting(until: now)
        self.connectPatience = connectPatience
    }

    /// Whether to start connecting now (the wait is over); if so the link is `connecting`.
    package mutating func shouldConnect(now: Instant) -> Bool {
        guard case .waiting(let until) = link, now >= until else { return false }
        link = .connecting(since: now)
        return true
    }

    /// Whether the connection being made took too long; if so, the link waits for the next attempt.
    package mutating func connectTimedOut(now: Instant, using random: inout some RandomNumberGenerator) -> Bool {
        guard case .connecting(let since) = link, now - since >= connectPatience else { return false }
        lost(now: now, using: &random)
        return true
    }

    /// The broker accepted the connection.
    package mutating func connected() {
        link = .connected(inFlight: nil)
        backoff.reset()
    }

    /// The connection failed or was lost: the message in flight is sent again after the next
    /// connection, which is attempted after the backoff's wait. A second report of the same
    /// loss changes nothing.
    package mutating func lost(now: Instant, using random: inout some RandomNumberGenerator) {
        if case .waiting = link { return }
        link = .waiting(until: now + backoff.nextDelay(using: &random))
    }

    /// Whether the outbox's oldest message may go now: connected with nothing in flight.
    package var isReadyToPublish: Bool {
        link == .connected(inFlight: nil)
    }

    /// Message `sequence` went out with MQTT id `messageID`.
    package mutating func published(sequence: Int64, messageID: Int32) {
        guard isReadyToPublish else { return }
        link = .connected(inFlight: InFlight(sequence: sequence, messageID: messageID))
    }

    /// A PUBACK for `messageID` came: the outbox sequence number to delete, if it was the one in flight.
    package mutating func acknowledged(messageID: Int32) -> Int64? {
        guard case .connected(let inFlight?) = link, inFlight.messageID == messageID else { return nil }
        link = .connected(inFlight: nil)
        return inFlight.sequence
    }

    /// The outbox message in flight, which the outbox's bound must not drop.
    package var inFlightSequence: Int64? {
        guard case .connected(let inFlight?) = link else { return nil }
        return inFlight.sequence
    }
}
