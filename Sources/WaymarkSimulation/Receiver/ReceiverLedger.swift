package import WaymarkReceiver
import WaymarkClock

/// Time spent in each power state and the charge and energy it cost, by the receiver's own
/// account (the daemon's power ledger keeps an independent one; tests compare the two).
package struct ReceiverLedger: Hashable, Sendable {
    /// The receiver's figures.
    package let profile: ReceiverProfile
    private var times: [ReceiverPowerState: Duration] = [:]

    init(profile: ReceiverProfile) {
        self.profile = profile
    }

    mutating func add(_ duration: Duration, in state: ReceiverPowerState) {
        times[state, default: .zero] += duration
    }

    /// Time spent in a state.
    package func time(in state: ReceiverPowerState) -> Duration {
        times[state] ?? .zero
    }

    /// Charge drawn, mAh.
    package var charge: Double {
        ReceiverPowerState.allCases.reduce(0) { $0 + profile.current(in: $1) * time(in: $1).seconds / 3_600 }
    }

    /// Energy drawn, mWh.
    package var energy: Double { charge * profile.supplyVoltage }
}
