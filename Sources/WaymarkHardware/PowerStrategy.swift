/// How the receiver is powered down while the device is still.
package enum PowerStrategy: String, Hashable, Sendable, CaseIterable {
    /// A GPIO line switches the receiver's supply or enable pin.
    case gpioEnable = "gpio-enable"
    /// MediaTek `$PMTK161,0` standby; any byte wakes it.
    case pmtkStandby = "pmtk-standby"
    /// u-blox UBX-RXM-PMREQ backup; UART RX (or EXTINT) wakes it.
    case ubxBackup = "ubx-backup"
    /// The receiver stays on; only delivery pauses.
    case none
}
