package import WaymarkHardware

/// One supported hardware combination, as a `Board/*.toml` file describes it: which receiver
/// on which UART, which accelerometer on which I2C bus, which GPIO lines, how the receiver is
/// powered down, what it draws, and how a person sets it up (config.txt lines, wiring).
package struct BoardDefinition: Hashable, Sendable {
    /// A human name, such as `Raspberry Pi + u-blox NEO-M8N + ADXL345`.
    package var name: String
    /// The simulated board: no devices, the simulation stands in for all of them.
    package var isSimulated: Bool
    /// The GPS receiver.
    package var receiver: ReceiverSpec
    /// Where the receiver's NMEA arrives (absent on the simulated board).
    package var uart: UARTSpec?
    /// The motion sensor (absent: GPS-only stationary detection).
    package var accelerometer: AccelerometerSpec?
    /// GPIO lines (absent: none wired).
    package var gpio: GPIOSpec?
    /// How the receiver is powered down while the device is still.
    package var power: PowerStrategy
    /// Lines `/boot/firmware/config.txt` needs, such as `enable_uart=1`.
    package var configTxt: [String]
    /// How to wire the parts to the board, one row per connection.
    package var wiring: [WiringRow]
    /// Where `waymark-mqtt` publishes this board's locations (absent: nowhere).
    package var mqtt: MQTTSettings?
    /// Where `waymarkd` serves time to chrony (absent: nowhere).
    package var chrony: ChronySettings?
    /// The kernel's PPS device timestamping the receiver's PPS (`[pps] device`, `/dev/ppsN`
    /// from the `pps-gpio` overlay or the `pps-ldisc` line discipline), used instead of a
    /// `[gpio.pps]` line, which the kernel then owns.
    package var kernelPPS: String?
}

/// The receiver and its supply currents per state, for power reports.
package struct ReceiverSpec: Hashable, Sendable {
    /// The module's name, such as `u-blox NEO-M8N`.
    package var model: String
    /// Its command set.
    package var family: ReceiverFamily
    /// The supply voltage the currents are measured at.
    package var supplyVolts: Double
    /// Supply current in each state.
    package var currents: ReceiverCurrents
}

/// A receiver's supply current, in milliamperes, in each power state.
package struct ReceiverCurrents: Hashable, Sendable {
    /// Searching for satellites.
    package var acquisition: Double
    /// Tracking with a fix.
    package var tracking: Double
    /// Software standby (PMTK161, UBX power save).
    package var standby: Double
    /// Backup: main supply off or UBX backup, RTC and ephemeris kept.
    package var backup: Double
    /// Switched off by its enable line.
    package var off: Double
}

/// The receiver's serial port.
package struct UARTSpec: Hashable, Sendable {
    /// The device, such as `/dev/serial0` or `/dev/ttyACM0`.
    package var path: String
    /// The rate to open it at, or `nil` for `auto`: try ``candidates`` until sentences arrive.
    package var baud: Int?
    /// The rates `auto` tries, in order.
    package var candidates: [Int]
    /// A faster rate to switch the receiver to with its vendor command once it is found.
    package var switchTo: Int?

    /// Creates UART settings.
    package init(path: String, baud: Int?, candidates: [Int], switchTo: Int?) {
        self.path = path
        self.baud = baud
        self.candidates = candidates
        self.switchTo = switchTo
    }
}

/// The accelerometer and where it answers.
package struct AccelerometerSpec: Hashable, Sendable {
    /// The chip.
    package var chip: AccelerometerChip
    /// The I2C bus device, such as `/dev/i2c-1`.
    package var bus: String
    /// Its 7-bit address, such as 0x53.
    package var address: UInt8

    /// Creates accelerometer settings.
    package init(chip: AccelerometerChip, bus: String, address: UInt8) {
        self.chip = chip
        self.bus = bus
        self.address = address
    }
}

/// Where GPIO lines are and which of them the board uses.
package struct GPIOSpec: Hashable, Sendable {
    /// The chip: labels (the first one present wins, since the Pi 5 renamed its chips) or
    /// paths starting with `/dev/`.
    package var chips: [String]
    /// Receiver enable or load switch (on = active).
    package var enable: LineSpec?
    /// The accelerometer's interrupt output.
    package var accelerometerInterrupt: LineSpec?
    /// The receiver's pulse-per-second output.
    package var pps: LineSpec?
    /// An output toggled at every receiver power transition, for power-meter traces.
    package var marker: LineSpec?
    /// u-blox EXTINT: driven low for backup, high to wake.
    package var extint: LineSpec?
    /// MediaTek/Quectel FORCE_ON: low before backup, high (over 50 ms) wakes the receiver.
    package var forceOn: LineSpec?
}

/// One GPIO line.
package struct LineSpec: Hashable, Sendable {
    /// The line's offset or name on the chip.
    package var line: LineID
    /// Whether the line's active level is low.
    package var activeLow: Bool

    /// Creates a line setting.
    package init(line: LineID, activeLow: Bool = false) {
        self.line = line
        self.activeLow = activeLow
    }
}

/// One wire: a part's pin and where it goes on the board.
package struct WiringRow: Hashable, Sendable {
    /// The part's pin, such as `NEO-M8N TX`.
    package var part: String
    /// The board's pin, such as `GPIO15 / RXD (pin 10)`.
    package var board: String

    /// Creates a wiring row.
    package init(part: String, board: String) {
        self.part = part
        self.board = board
    }
}

/// The baud rates the drivers support.
package enum BaudRates {
    /// 4800 to 921600, the standard rates.
    package static let supported = [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]
}
