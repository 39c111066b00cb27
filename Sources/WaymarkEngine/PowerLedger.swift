package import WaymarkClock
package import WaymarkReceiver

/// Exactly how long the receiver spent in each power state, every transition with its
/// instant and reason, and the energy that cost at the receiver's currents.
package struct PowerLedger: Hashable, Sendable {
    /// One change of state.
    package struct Transition: Hashable, Sendable {
        /// When it happened.
        package var instant: Instant
        /// The state left.
        package var from: ReceiverPowerState
        /// The state entered.
        package var to: ReceiverPowerState
        /// Why (e.g. "stationary", "motion interrupt", "first fix").
        package var reason: String
    }

    /// The state now.
    package private(set) var state: ReceiverPowerState
    /// Since when.
    package private(set) var since: Instant
    /// Every transition, in order.
    package private(set) var transitions: [Transition] = []
    private var accumulated: [ReceiverPowerState: Duration] = [:]
    private let receiver: ReceiverProfile

    /// Starts a ledger in `state` at `start`.
    package init(receiver: ReceiverProfile, state: ReceiverPowerState = .off, start: Instant) {
        self.receiver = receiver
        self.state = state
        self.since = start
    }

    /// Records a change of state (nothing if the state is unchanged).
    package mutating func enter(_ newState: ReceiverPowerState, at instant: Instant, reason: String) {
        guard newState != state else { return }
        accumulated[state, default: .zero] += instant - since
        transitions.append(Transition(instant: instant, from: state, to: newState, reason: reason))
        state = newState
        since = instant
    }

    /// Time spent in `state` up to `instant`.
    package func time(in state: ReceiverPowerState, at instant: Instant) -> Duration {
        let past = accumulated[state] ?? .zero
        return state == self.state ? past + (instant - since) : past
    }

    /// Energy spent in `state` up to `instant`, milliwatt-hours.
    package func energy(in state: ReceiverPowerState, at instant: Instant) -> Double {
        time(in: state, at: instant).seconds / 3_600 * receiver.current(in: state) * receiver.supplyVoltage
    }

    /// Energy spent in all states up to `instant`, milliwatt-hours.
    package func totalEnergy(at instant: Instant) -> Double {
        ReceiverPowerState.allCases.reduce(0) { $0 + energy(in: $1, at: instant) }
    }

    /// How many times the receiver was powered up from a down state.
    package var powerCycles: Int {
        transitions.filter { !$0.from.isOn && $0.to == .acquiring }.count
    }
}
