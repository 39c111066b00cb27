package import WaymarkHardware
import WaymarkClock

extension ReceiverCommands {
    /// The command that switches a receiver of `family` to `rate`, or `nil` for a generic
    /// receiver. For u-blox it is UBX-CFG-PRT (PUBX,41 is the NMEA alternative).
    package static func setBaudRate(_ rate: Int, family: ReceiverFamily) -> [UInt8]? {
        switch family {
        case .mediatek: pmtkSetBaudRate(rate)
        case .ublox: ubxSetBaudRate(rate)
        case .generic: nil
        }
    }

    /// The command that sets the time between fixes of a receiver of `family`, or `nil` for a
    /// generic receiver: UBX-CFG-RATE for u-blox, PMTK220 for MediaTek.
    package static func setMeasurementInterval(_ interval: Duration, family: ReceiverFamily) -> [UInt8]? {
        let milliseconds = Int(interval.nanoseconds / 1_000_000)
        switch family {
        case .mediatek: return pmtkSetFixInterval(milliseconds: milliseconds)
        case .ublox: return ubxSetMeasurementRate(milliseconds: UInt16(clamping: milliseconds))
        case .generic: return nil
        }
    }

    /// The command that enables a receiver of `family`'s own orbit prediction, or `nil` for a
    /// generic receiver: UBX-CFG-NAVX5 `useAOP` (AssistNow Autonomous) for u-blox,
    /// `$PMTK869,1,1` (EASY) for MediaTek.
    package static func enableOrbitPrediction(family: ReceiverFamily) -> [UInt8]? {
        switch family {
        case .mediatek: pmtkEnableEASY
        case .ublox: ubxEnableAssistNowAutonomous
        case .generic: nil
        }
    }
}
