import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkReceiver

@Suite("Power ledger")
struct LedgerTests {
    @Test("time per state adds up to the elapsed time and energy follows the receiver's currents")
    func accounting() {
        var ledger = PowerLedger(receiver: .ubloxM8, state: .backup, start: .zero)
        ledger.enter(.acquiring, at: .zero + .seconds(10), reason: "live updates")
        ledger.enter(.tracking, at: .zero + .seconds(11), reason: "first fix")
        ledger.enter(.backup, at: .zero + .seconds(3_611), reason: "stationary")
        let end = Instant.zero + .seconds(7_200)
        let total = ReceiverPowerState.allCases.reduce(Duration.zero) { $0 + ledger.time(in: $1, at: end) }
        #expect(total == .seconds(7_200))
        #expect(ledger.time(in: .tracking, at: end) == .seconds(3_600))
        let expected = ReceiverProfile.ubloxM8.trackingCurrent * ReceiverProfile.ubloxM8.supplyVoltage
        #expect(abs(ledger.energy(in: .tracking, at: end) - expected) < 1e-9)
        #expect(ledger.transitions.map(\.reason) == ["live updates", "first fix", "stationary"])
        #expect(ledger.powerCycles == 1)
    }
}
