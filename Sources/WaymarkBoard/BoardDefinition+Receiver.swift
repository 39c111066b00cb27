package import WaymarkReceiver
package import WaymarkHardware

extension BoardDefinition {
    /// The engine's and the simulation's figures for this board's receiver: the family's
    /// profile (the Quectel L76 for a MediaTek model that says so, the MT3339 for other
    /// MediaTek modules, the u-blox M8 otherwise, without orbit prediction for a generic
    /// receiver) with the board file's currents and voltage.
    package var receiverProfile: ReceiverProfile {
        var profile: ReceiverProfile
        switch receiver.family {
        case .mediatek: profile = receiver.model.contains("L76") ? .quectelL76 : .mediatekMT3339
        case .ublox: profile = .ubloxM8
        case .generic:
            profile = .ubloxM8
            profile.orbitPrediction = nil  // no command is known to enable it
        }
        let currents = receiver.currents
        profile.acquisitionCurrent = currents.acquisition
        profile.trackingCurrent = currents.tracking
        profile.standbyCurrent = currents.standby
        profile.backupCurrent = currents.backup
        profile.supplyVoltage = receiver.supplyVolts
        return profile
    }

    /// The state the board's power strategy leaves the receiver in: `.backup` for an enable
    /// line with the backup supply kept and for UBX and PMTK backup, `.off` for an enable line without
    /// one, `.standby` for PMTK standby, `nil` when it stays on (only delivery pauses).
    package var poweredDownState: ReceiverPowerState? {
        switch power {
        case .gpioEnable: receiverProfile.hasBackupSupply ? .backup : .off
        case .ubxBackup, .pmtkBackup: .backup
        case .pmtkStandby: .standby
        case .none: nil
        }
    }

    /// Whether stationary detection has an accelerometer (the simulated board has one).
    package var hasAccelerometer: Bool {
        accelerometer != nil || isSimulated
    }

    /// The chip a simulation of this board stands in for: the board's own, or
    /// ``AccelerometerChip/simulatedBoard``; `nil` when it has none.
    package var simulatedAccelerometer: AccelerometerChip? {
        hasAccelerometer ? accelerometer?.chip ?? .simulatedBoard : nil
    }
}
