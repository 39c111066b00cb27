package import WaymarkSystem

/// A shunt current monitor on I2C (INA219, INA226) that measures the GPS receiver's supply
/// current for power-profile runs.
///
/// Both chips send their 16-bit registers most significant byte first, while SMBus word
/// transfers are little-endian, so words are swapped. The current is read from the shunt
/// voltage register and the board's shunt resistance (no calibration register needed).
package final class CurrentSensor {
    /// Which chip.
    package enum Chip: String, Sendable, CaseIterable {
        /// TI INA219: shunt voltage LSB 10 µV, no identity register.
        case ina219
        /// TI INA226: shunt voltage LSB 2.5 µV, manufacturer id 0x5449 at 0xFE, die id 0x2260 at 0xFF.
        case ina226

        /// Shunt voltage per least significant bit, volts.
        var shuntVoltageLSB: Double {
            switch self {
            case .ina219: 10e-6
            case .ina226: 2.5e-6
            }
        }
    }

    /// Register addresses shared by both chips.
    enum Register {
        static let configuration: UInt8 = 0x00
        static let shuntVoltage: UInt8 = 0x01
        static let manufacturerID: UInt8 = 0xFE
        static let dieID: UInt8 = 0xFF
    }

    private let device: I2CDevice
    /// The chip.
    package let chip: Chip
    /// The shunt resistance, ohms.
    package let shuntOhms: Double

    /// Opens the sensor; an INA226 is identified by its id registers (a mismatch is an error
    /// naming what was found).
    package init(device: I2CDevice, chip: Chip, shuntOhms: Double) throws {
        guard shuntOhms > 0, shuntOhms.isFinite else { throw CurrentSensorError.invalidShunt(shuntOhms) }
        self.device = device
        self.chip = chip
        self.shuntOhms = shuntOhms
        if chip == .ina226 {
            let manufacturer = try Self.bigEndianWord(device.readWord(Register.manufacturerID))
            let die = try Self.bigEndianWord(device.readWord(Register.dieID))
            guard manufacturer == 0x5449, die == 0x2260 else {
                throw CurrentSensorError.identityMismatch(
                    location: device.location, manufacturer: manufacturer, die: die)
            }
        }
    }

    /// The current through the shunt, milliamperes (negative if it flows backwards).
    package func current() throws(SystemError) -> Double {
        Self.milliamperes(smbusWord: try device.readWord(Register.shuntVoltage), chip: chip, shuntOhms: shuntOhms)
    }

    /// The current a shunt-voltage register word (as SMBus delivers it) stands for.
    package static func milliamperes(smbusWord: UInt16, chip: Chip, shuntOhms: Double) -> Double {
        let raw = Int16(bitPattern: bigEndianWord(smbusWord))
        return Double(raw) * chip.shuntVoltageLSB / shuntOhms * 1_000
    }

    /// A register word as the chip means it (SMBus delivers the first byte in the low half).
    static func bigEndianWord(_ smbusWord: UInt16) -> UInt16 {
        smbusWord.byteSwapped
    }
}

/// Why a current sensor cannot be used.
package enum CurrentSensorError: Error, CustomStringConvertible {
    /// The shunt resistance must be positive.
    case invalidShunt(Double)
    /// The chip at the address is not an INA226.
    case identityMismatch(location: String, manufacturer: UInt16, die: UInt16)

    package var description: String {
        switch self {
        case .invalidShunt(let ohms): "the shunt resistance must be above 0 ohms, not \(ohms)"
        case .identityMismatch(let location, let manufacturer, let die):
            "no INA226 on \(location): manufacturer id 0x\(String(manufacturer, radix: 16)) (expected 0x5449), die id 0x\(String(die, radix: 16)) (expected 0x2260)"
        }
    }
}
