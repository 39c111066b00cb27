/// Whether the receiver's accuracy has stopped improving: the break-even point of Core
/// Location's `requestLocation` ("overall the trend will be narrower until you reach kind of a
/// break-even point … we got to a point where we weren't getting better").
///
/// An accuracy counts as an improvement when it is more than ``significantGain`` better than
/// the accuracy at the last improvement (the first fix starts the count). Once ``patience``
/// fixes in a row brought none, the accuracy has converged. The reasons for both figures are
/// in `docs/semantics.md`.
struct Convergence: Hashable, Sendable {
    /// The smallest gain that counts, as a fraction of the accuracy improved on.
    static let significantGain = 0.1
    /// Fixes in a row without a significant gain after which the accuracy has converged.
    static let patience = 3

    /// The accuracy at the last significant gain (or of the first fix), metres.
    private var reference: Double?
    /// Fixes since then that did not improve on it significantly.
    private var fixesWithoutGain = 0

    /// Whether the accuracy has stopped improving.
    var isConverged: Bool { fixesWithoutGain >= Self.patience }

    /// Records the horizontal accuracy of the next fix, metres.
    mutating func observe(_ accuracy: Double) {
        if let reference, !Self.isSignificantlyBetter(accuracy, than: reference) {
            fixesWithoutGain += 1
        } else {
            reference = accuracy
            fixesWithoutGain = 0
        }
    }

    /// Whether `accuracy` is more than ``significantGain`` better than `other`.
    static func isSignificantlyBetter(_ accuracy: Double, than other: Double) -> Bool {
        accuracy < other * (1 - significantGain)
    }
}
