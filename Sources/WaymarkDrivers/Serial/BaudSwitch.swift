import WaymarkBoard

extension ReceiverCommands {
    /// The command that switches a receiver of `family` to `rate`, or `nil` for a generic
    /// receiver. For u-blox it is UBX-CFG-PRT (PUBX,41 is the NMEA alternative).
    public static func setBaudRate(_ rate: Int, family: ReceiverFamily) -> [UInt8]? {
        switch family {
        case .mediatek: pmtkSetBaudRate(rate)
        case .ublox: ubxSetBaudRate(rate)
        case .generic: nil
        }
    }
}
