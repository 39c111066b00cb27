/// When to change the receiver's measurement interval so the first fix after a power-up comes
/// as early as the receiver can give it.
///
/// At one measurement a second, a solution that is ready just after a measurement waits almost
/// a second for the next one. So from power-up to the first fix the receiver measures at its
/// ``ReceiverProfile/firstFixInterval`` (5 Hz), then at one fix a second again. A booting
/// receiver does not hear commands: the fast interval is sent once it has talked (its
/// start-up message or first epoch). Nothing is ever sent to a receiver that was powered down,
/// since bytes on its RX line would wake it.
///
/// The host tells it what happens and sends the intervals it answers (UBX-CFG-RATE, PMTK220).
package struct FirstFixRate: Hashable, Sendable {
    /// The interval between fixes in normal running.
    package static let normal = Duration.seconds(1)

    private enum Phase: Hashable, Sendable {
        case normal
        case awaitingReceiver
        case fast
    }

    /// The interval used until the first fix.
    package let fast: Duration
    private var phase = Phase.normal

    /// A plan using `fast` until each power-up's first fix.
    package init(fast: Duration) {
        self.fast = fast
    }

    /// The receiver was powered up; it cannot hear commands until it talks.
    package mutating func poweredUp() {
        phase = .awaitingReceiver
    }

    /// The receiver was powered down: nothing is to be sent to it.
    package mutating func poweredDown() {
        phase = .normal
    }

    /// Sentences came from the receiver. Returns the interval to send, if any.
    package mutating func receiverTalked() -> Duration? {
        guard phase == .awaitingReceiver else { return nil }
        phase = .fast
        return fast
    }

    /// A fix with a position came. Returns the interval to send, if any.
    package mutating func fixArrived() -> Duration? {
        defer { phase = .normal }
        return phase == .fast ? Self.normal : nil
    }
}
