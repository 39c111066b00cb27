/// How the receiver is powered down while the device is still.
package enum PowerStrategy: String, Hashable, Sendable, CaseIterable {
    /// A GPIO line switches the receiver's supply or enable pin.
    case gpioEnable = "gpio-enable"
    /// MediaTek `$PMTK161,0` standby; any byte wakes it.
    case pmtkStandby = "pmtk-standby"
    /// MediaTek `$PMTK225,4` perpetual backup (a standby's current divided by about 40); only
    /// the FORCE_ON line wakes it.
    case pmtkBackup = "pmtk-backup"
    /// u-blox UBX-RXM-PMREQ backup; UART RX (or EXTINT) wakes it.
    case ubxBackup = "ubx-backup"
    /// The receiver stays on; only delivery pauses.
    case none
}
