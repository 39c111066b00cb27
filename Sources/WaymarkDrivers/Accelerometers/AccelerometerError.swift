package import WaymarkHardware
package import WaymarkSystem

/// Why an accelerometer cannot be used.
package enum AccelerometerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The identity register holds another value: another chip, a wrong address or no chip.
    case identityMismatch(
        chip: AccelerometerChip, location: String, register: UInt8, expected: UInt8, found: UInt8)
    /// A bus transfer failed after its retries.
    case transfer(chip: AccelerometerChip, SystemError)

    /// Names the chip, bus, address and values, and the fix.
    package var description: String {
        switch self {
        case .identityMismatch(let chip, let location, let register, let expected, let found):
            let other = AccelerometerIdentity.chip(answering: register, with: found)
                .map { " (that is what a \($0.rawValue) answers)" } ?? ""
            return "\(chip.rawValue) on \(location): ID register 0x\(hex(register)) reads 0x\(hex(found))"
                + "\(other), expected 0x\(hex(expected)). Fix: check accelerometer.chip and "
                + "accelerometer.address in the board file, and the wiring (i2cdetect shows what answers)"
        case .transfer(let chip, let error):
            return "\(chip.rawValue): \(error)"
        }
    }
}

/// The identity registers of the supported chips.
enum AccelerometerIdentity {
    /// (chip, register, value).
    static let all: [(AccelerometerChip, UInt8, UInt8)] = [
        (.adxl345, 0x00, 0xE5), (.lis3dh, 0x0F, 0x33), (.mpu6050, 0x75, 0x68),
    ]

    static func chip(answering register: UInt8, with value: UInt8) -> AccelerometerChip? {
        all.first { $0.1 == register && $0.2 == value }?.0
    }
}

func hex(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return value < 0x10 ? "0" + text : text
}
