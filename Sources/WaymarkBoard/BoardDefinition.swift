/// One supported hardware combination, as a `Board/*.toml` file describes it: which receiver
/// on which UART, which accelerometer on which I2C bus, which GPIO lines, how the receiver is
/// powered down, what it draws, and how a person sets it up (config.txt lines, wiring).
public struct BoardDefinition: Hashable, Sendable {
    /// A human name, such as `Raspberry Pi + u-blox NEO-M8N + ADXL345`.
    public var name: String
    /// The simulated board: no devices, the simulation stands in for all of them.
    public var isSimulated: Bool
    /// The GPS receiver.
    public var receiver: ReceiverSpec
    /// Where the receiver's NMEA arrives (absent on the simulated board).
    public var uart: UARTSpec?
    /// The motion sensor (absent: GPS-only stationary detection).
    public var accelerometer: AccelerometerSpec?
    /// GPIO lines (absent: none wired).
    public var gpio: GPIOSpec?
    /// How the receiver is powered down while the device is still.
    public var power: PowerStrategy
    /// Lines `/boot/firmware/config.txt` needs, such as `enable_uart=1`.
    public var configTxt: [String]
    /// How to wire the parts to the board, one row per connection.
    public var wiring: [WiringRow]
    /// Where `waymark-mqtt` publishes this board's locations (absent: nowhere).
    public var mqtt: MQTTSettings?
}

/// Which command set a receiver speaks besides NMEA: it decides the baud-switch and
/// power-down commands available.
public enum ReceiverFamily: String, Hashable, Sendable, CaseIterable {
    /// u-blox: UBX binary and PUBX sentences.
    case ublox
    /// MediaTek and MediaTek-based modules (Adafruit Ultimate GPS, Quectel L76/L80): PMTK.
    case mediatek
    /// Plain NMEA, no vendor commands.
    case generic
}

/// The receiver and its supply currents per state, for power reports.
public struct ReceiverSpec: Hashable, Sendable {
    /// The module's name, such as `u-blox NEO-M8N`.
    public var model: String
    /// Its command set.
    public var family: ReceiverFamily
    /// The supply voltage the currents are measured at.
    public var supplyVolts: Double
    /// Supply current in each state.
    public var currents: ReceiverCurrents
}

/// A receiver's supply current, in milliamperes, in each power state.
public struct ReceiverCurrents: Hashable, Sendable {
    /// Searching for satellites.
    public var acquisition: Double
    /// Tracking with a fix.
    public var tracking: Double
    /// Software standby (PMTK161, UBX power save).
    public var standby: Double
    /// Backup: main supply off or UBX backup, RTC and ephemeris kept.
    public var backup: Double
    /// Switched off by its enable line.
    public var off: Double
}

/// The receiver's serial port.
public struct UARTSpec: Hashable, Sendable {
    /// The device, such as `/dev/serial0` or `/dev/ttyACM0`.
    public var path: String
    /// The rate to open it at, or `nil` for `auto`: try ``candidates`` until sentences arrive.
    public var baud: Int?
    /// The rates `auto` tries, in order.
    public var candidates: [Int]
    /// A faster rate to switch the receiver to with its vendor command once it is found.
    public var switchTo: Int?

    /// Creates UART settings.
    public init(path: String, baud: Int?, candidates: [Int], switchTo: Int?) {
        self.path = path
        self.baud = baud
        self.candidates = candidates
        self.switchTo = switchTo
    }
}

/// Accelerometer chips with drivers.
public enum AccelerometerChip: String, Hashable, Sendable, CaseIterable {
    /// Analog Devices ADXL345.
    case adxl345
    /// ST LIS3DH.
    case lis3dh
    /// InvenSense MPU-6050 (accelerometer part only).
    case mpu6050
}

/// The accelerometer and where it answers.
public struct AccelerometerSpec: Hashable, Sendable {
    /// The chip.
    public var chip: AccelerometerChip
    /// The I2C bus device, such as `/dev/i2c-1`.
    public var bus: String
    /// Its 7-bit address, such as 0x53.
    public var address: UInt8

    /// Creates accelerometer settings.
    public init(chip: AccelerometerChip, bus: String, address: UInt8) {
        self.chip = chip
        self.bus = bus
        self.address = address
    }
}

/// Where GPIO lines are and which of them the board uses.
public struct GPIOSpec: Hashable, Sendable {
    /// The chip: labels (the first one present wins, since the Pi 5 renamed its chips) or
    /// paths starting with `/dev/`.
    public var chips: [String]
    /// Receiver enable or load switch (on = active).
    public var enable: LineSpec?
    /// The accelerometer's interrupt output.
    public var accelerometerInterrupt: LineSpec?
    /// The receiver's pulse-per-second output.
    public var pps: LineSpec?
    /// An output toggled at every receiver power transition, for power-meter traces.
    public var marker: LineSpec?
    /// u-blox EXTINT: driven low for backup, high to wake.
    public var extint: LineSpec?
}

/// One GPIO line.
public struct LineSpec: Hashable, Sendable {
    /// The line's offset or name on the chip.
    public var line: LineID
    /// Whether the line's active level is low.
    public var activeLow: Bool

    /// Creates a line setting.
    public init(line: LineID, activeLow: Bool = false) {
        self.line = line
        self.activeLow = activeLow
    }
}

/// A line by offset on its chip, or by name (`GPIO17`: the same on Pi 4 and Pi 5).
public enum LineID: Hashable, Sendable, CustomStringConvertible {
    /// The offset on the chip.
    case offset(Int)
    /// The line name.
    case name(String)

    /// `17` or `"GPIO17"`.
    public var description: String {
        switch self {
        case .offset(let offset): String(offset)
        case .name(let name): "\"\(name)\""
        }
    }
}

/// How the receiver is powered down while the device is still.
public enum PowerStrategy: String, Hashable, Sendable, CaseIterable {
    /// A GPIO line switches the receiver's supply or enable pin.
    case gpioEnable = "gpio-enable"
    /// MediaTek `$PMTK161,0` standby; any byte wakes it.
    case pmtkStandby = "pmtk-standby"
    /// u-blox UBX-RXM-PMREQ backup; UART RX (or EXTINT) wakes it.
    case ubxBackup = "ubx-backup"
    /// The receiver stays on; only delivery pauses.
    case none
}

/// One wire: a part's pin and where it goes on the board.
public struct WiringRow: Hashable, Sendable {
    /// The part's pin, such as `NEO-M8N TX`.
    public var part: String
    /// The board's pin, such as `GPIO15 / RXD (pin 10)`.
    public var board: String

    /// Creates a wiring row.
    public init(part: String, board: String) {
        self.part = part
        self.board = board
    }
}

/// The baud rates the drivers support.
public enum BaudRates {
    /// 4800 to 921600, the standard rates.
    public static let supported = [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]
}
