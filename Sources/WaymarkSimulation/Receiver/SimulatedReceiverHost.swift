package import WaymarkClock
package import WaymarkFix
package import WaymarkLocation
package import WaymarkReceiver
package import WaymarkNMEA

/// The host's side of the simulated receiver, doing what a board source does with a real one:
/// power commands, the receiver's NMEA through the real decoder, and what is sent once the
/// receiver talks after a power-up: its orbit prediction enabled, and the measurement intervals
/// of ``FirstFixRate`` (fast until its first fix, one a second from then). Used by the
/// daemon's simulated source and by power-profile runs.
package struct SimulatedReceiverHost: Sendable {
    private var decoder = NMEADecoder()
    private var firstFixRate: FirstFixRate

    /// A host for a receiver of `profile`; `date` seeds the decoder (the scenario's start).
    package init(profile: ReceiverProfile, date: CivilDate) {
        firstFixRate = FirstFixRate(fast: profile.firstFixInterval)
        decoder.seedDate(date)
    }

    /// The time of day of the epoch the decoder is assembling (or assembled last), if any.
    package var epochInProgress: TimeOfDay? { decoder.assembler.epochInProgress }

    /// Powers the receiver up, or down into `downState` (`.backup`, `.standby` or `.off`).
    package mutating func setPower(on: Bool, downState: ReceiverPowerState, receiver: inout SimulatedReceiver, at now: Instant) {
        if on {
            receiver.powerOn(at: now)
            firstFixRate.poweredUp()
            return
        }
        firstFixRate.poweredDown()
        if downState == .standby {
            receiver.standby(at: now)
        } else {
            receiver.powerOff(at: now, keepBackup: downState == .backup)
        }
    }

    /// Takes one output of the receiver: decodes it and sends the commands it calls for.
    /// Returns the fixes it completed.
    package mutating func receive(_ bytes: [UInt8], receiver: inout SimulatedReceiver, at now: Instant) -> [Fix] {
        var fixes: [Fix] = []
        bytes.withUnsafeBufferPointer { buffer in
            decoder.decode(buffer) { fixes.append($0) }
        }
        if fixes.contains(where: \.hasPosition), let interval = firstFixRate.fixArrived() {
            receiver.setMeasurementInterval(interval, at: now)
        }
        if let interval = firstFixRate.receiverTalked() {
            receiver.enableOrbitPrediction(at: now)
            receiver.setMeasurementInterval(interval, at: now)
        }
        return fixes
    }
}
