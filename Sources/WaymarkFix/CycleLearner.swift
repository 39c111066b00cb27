package import WaymarkNMEA

/// Identifies a sentence's place in a receiver's output cycle: who sent it, which type, and
/// which occurrence of that pair within the epoch (the last part, for GSV lists).
package struct CycleKey: Hashable, Sendable {
    /// The sending talker.
    package var talker: Talker
    /// The sentence type, as its three letters packed into an integer.
    package var type: UInt32
    /// Occurrence of this talker/type within the epoch, from 1; 0 marks the last part of a
    /// GSV list.
    package var ordinal: Int
}

/// Learns which sentence ends a receiver's measurement cycle, so an epoch can be emitted the
/// moment it is complete instead of when the next epoch's first sentence arrives (a full
/// cycle later).
///
/// Each time the epoch's time changes, the key of the previous epoch's last sentence is
/// observed. Once the same key has ended two epochs in a row it is trusted. A time-stamped
/// sentence of an already emitted epoch (the receiver changed its output, or the guess was
/// wrong) withdraws the trust until the cycle is learned again.
package struct CycleLearner: Sendable {
    /// How many consecutive epochs must end with the same sentence before it is trusted.
    package static let confirmationsNeeded = 2

    private var candidate: CycleKey?
    private var confirmations = 0

    /// Creates a learner that knows nothing yet.
    package init() {}

    /// The sentence that ends the cycle, once learned.
    package var endOfCycle: CycleKey? {
        confirmations >= Self.confirmationsNeeded ? candidate : nil
    }

    /// Records the last sentence of an epoch that ended because the time changed.
    package mutating func observeEnd(_ key: CycleKey) {
        if key == candidate {
            confirmations += 1
        } else {
            candidate = key
            confirmations = 1
        }
    }

    /// Forgets the learned cycle after a sentence arrived for an epoch already emitted.
    package mutating func withdraw() {
        candidate = nil
        confirmations = 0
    }
}
