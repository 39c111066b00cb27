package import WaymarkHardware
package import WaymarkSystem

/// Powers the GPS receiver down while the device is still and back up when it moves, by the
/// board's ``PowerStrategy``. Each implementation only emits its bytes or line changes; when
/// to call it is the power policy's decision.
package protocol GPSPowerControl: AnyObject {
    /// The strategy implemented.
    var strategy: PowerStrategy { get }
    /// Puts the receiver into its low-power state.
    func powerDown() throws(SystemError)
    /// Brings it back to navigation.
    func powerUp() throws(SystemError)
}

/// `gpio-enable`: an enable or load-switch line, active = receiver on.
package final class GPIOEnablePower: GPSPowerControl {
    package let strategy = PowerStrategy.gpioEnable
    private let line: any DigitalOutput

    /// Controls the receiver through `line`.
    package init(line: any DigitalOutput) {
        self.line = line
    }

    package func powerDown() throws(SystemError) { try line.setActive(false) }
    package func powerUp() throws(SystemError) { try line.setActive(true) }
}

/// `pmtk-standby`: `$PMTK161,0*28` to stop, any byte (`$PMTK000*32`) to wake.
package final class PMTKStandbyPower: GPSPowerControl {
    package let strategy = PowerStrategy.pmtkStandby
    private let port: any ByteStreamPort

    /// Sends the commands on `port`.
    package init(port: any ByteStreamPort) {
        self.port = port
    }

    package func powerDown() throws(SystemError) { try port.writeAll(ReceiverCommands.pmtkStandby) }
    package func powerUp() throws(SystemError) { try port.writeAll(ReceiverCommands.pmtkWake) }
}

/// `pmtk-backup`: `$PMTK225,4*2F` perpetual backup, entered with FORCE_ON low; FORCE_ON high
/// wakes the receiver and is held high while it runs (the wake needs over 50 ms of it).
package final class PMTKBackupPower: GPSPowerControl {
    package let strategy = PowerStrategy.pmtkBackup
    private let port: any ByteStreamPort
    private let forceOn: any DigitalOutput

    /// Sends the command on `port` and drives `forceOn`.
    package init(port: any ByteStreamPort, forceOn: any DigitalOutput) {
        self.port = port
        self.forceOn = forceOn
    }

    package func powerDown() throws(SystemError) {
        try forceOn.setActive(false)
        try port.writeAll(ReceiverCommands.pmtkBackup)
    }

    package func powerUp() throws(SystemError) { try forceOn.setActive(true) }
}

/// `ubx-backup`: UBX-RXM-PMREQ backup until woken; wake by an EXTINT0 pulse when the line is
/// wired (held low in backup, high when on), otherwise by bytes on UART RX.
package final class UBXBackupPower: GPSPowerControl {
    package let strategy = PowerStrategy.ubxBackup
    private let port: any ByteStreamPort
    private let extint: (any DigitalOutput)?

    /// Sends the request on `port`; `extint` is the EXTINT0 line if wired.
    package init(port: any ByteStreamPort, extint: (any DigitalOutput)? = nil) {
        self.port = port
        self.extint = extint
    }

    package func powerDown() throws(SystemError) {
        try port.writeAll(ReceiverCommands.ubxBackup(wakeOn: extint == nil ? .uartRX : [.uartRX, .extint0]))
        try extint?.setActive(false)
    }

    package func powerUp() throws(SystemError) {
        if let extint {
            try extint.setActive(true)
        } else {
            try port.writeAll(ReceiverCommands.ubxWake)
        }
    }
}

/// `none`: the receiver stays on; only delivery pauses.
package final class NoPowerControl: GPSPowerControl {
    package let strategy = PowerStrategy.none

    /// Creates the no-op control.
    package init() {}

    package func powerDown() {}
    package func powerUp() {}
}

/// Wraps a control and toggles a marker line after every transition, so a power meter's
/// trace can be aligned with the daemon's log.
package final class MarkedPowerControl: GPSPowerControl {
    private let inner: any GPSPowerControl
    private let marker: any DigitalOutput
    private var level = false

    /// Marks `inner`'s transitions on `marker` (which starts inactive).
    package init(_ inner: any GPSPowerControl, marker: any DigitalOutput) {
        self.inner = inner
        self.marker = marker
    }

    package var strategy: PowerStrategy { inner.strategy }

    package func powerDown() throws(SystemError) {
        try inner.powerDown()
        try toggle()
    }

    package func powerUp() throws(SystemError) {
        try inner.powerUp()
        try toggle()
    }

    private func toggle() throws(SystemError) {
        level.toggle()
        try marker.setActive(level)
    }
}
