import WaymarkBoard
import WaymarkReceiver

/// What a power run takes from a board file: the receiver (its profile, with the board's
/// current figures), how the board powers it down, and whether it has an accelerometer.
struct SimulatedBoardSpec {
    let name: String
    let profile: ReceiverProfile
    let poweredDownState: ReceiverPowerState?
    let hasAccelerometer: Bool

    init(_ board: BoardDefinition) {
        name = board.name
        var profile: ReceiverProfile
        switch board.receiver.family {
        case .mediatek: profile = board.receiver.model.contains("L76") ? .quectelL76 : .mediatekMT3339
        case .ublox, .generic: profile = .ubloxM8
        }
        let currents = board.receiver.currents
        profile.acquisitionCurrent = currents.acquisition
        profile.trackingCurrent = currents.tracking
        profile.standbyCurrent = currents.standby
        profile.backupCurrent = currents.backup
        profile.supplyVoltage = board.receiver.supplyVolts
        self.profile = profile
        switch board.power {
        case .gpioEnable: poweredDownState = profile.hasBackupSupply ? .backup : .off
        case .ubxBackup: poweredDownState = .backup
        case .pmtkStandby: poweredDownState = .standby
        case .none: poweredDownState = nil
        }
        hasAccelerometer = board.accelerometer != nil || board.isSimulated
    }
}
