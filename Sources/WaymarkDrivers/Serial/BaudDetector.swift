import WaymarkNMEA

/// Decides a receiver's baud rate from what arrives: pure, fed the bytes read at the rate it
/// asks for, so it can be tested with recorded bytes.
///
/// At each candidate rate it waits for ``requiredSentences`` sentences whose checksums verify
/// (``NMEAFramer`` decides). Bytes at a wrong rate are garbage; once ``garbageBudget`` bytes
/// have arrived without a verified sentence, or the caller reports silence, it moves to the
/// next candidate. After the last one it reports ``Decision/exhausted``; ``restart()`` begins
/// again (the daemon waits with ``Backoff`` first and reports `locationUnavailable`).
package struct BaudDetector: Sendable {
    /// What to do next.
    package enum Decision: Hashable, Sendable {
        /// Keep reading at the current rate.
        case listening
        /// Switch the port to this rate and keep feeding bytes.
        case tryRate(Int)
        /// The receiver talks at this rate.
        case detected(Int)
        /// No candidate produced sentences.
        case exhausted
    }

    /// The rates tried, in order.
    package let candidates: [Int]
    /// Verified sentences needed to accept a rate.
    package let requiredSentences: Int
    /// Bytes without a verified sentence after which a rate is given up.
    package let garbageBudget: Int
    private var index = 0
    private var framer = NMEAFramer()
    private var sentences = 0
    private var bytesSinceSentence = 0

    /// A detector that starts at the first of `candidates`.
    package init(candidates: [Int], requiredSentences: Int = 2, garbageBudget: Int = 600) {
        precondition(!candidates.isEmpty, "baud detection needs at least one candidate rate")
        self.candidates = candidates
        self.requiredSentences = requiredSentences
        self.garbageBudget = garbageBudget
    }

    /// The rate the port should be at now.
    package var currentRate: Int { candidates[min(index, candidates.count - 1)] }

    /// Feeds bytes read at ``currentRate``. Once a rate is detected it stays detected.
    package mutating func consume(_ bytes: some Collection<UInt8>) -> Decision {
        guard index < candidates.count else { return .exhausted }
        if sentences >= requiredSentences { return .detected(currentRate) }
        var verified = 0
        framer.consume(bytes) { _ in verified += 1 }
        if verified > 0 {
            sentences += verified
            bytesSinceSentence = 0
            if sentences >= requiredSentences { return .detected(currentRate) }
            return .listening
        }
        bytesSinceSentence += bytes.count
        return bytesSinceSentence >= garbageBudget ? advance() : .listening
    }

    /// Reports that nothing usable arrived at ``currentRate`` within the caller's window
    /// (about 2 s: a receiver sends at least once a second).
    package mutating func silence() -> Decision {
        guard index < candidates.count else { return .exhausted }
        return advance()
    }

    /// Starts over at the first candidate.
    package mutating func restart() {
        index = 0
        resetRate()
    }

    private mutating func advance() -> Decision {
        index += 1
        resetRate()
        return index < candidates.count ? .tryRate(candidates[index]) : .exhausted
    }

    private mutating func resetRate() {
        framer = NMEAFramer()
        sentences = 0
        bytesSinceSentence = 0
    }
}
