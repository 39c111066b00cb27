import WaymarkHardware
import WaymarkSystem

/// Register helpers shared by the drivers: every bus error becomes an
/// ``AccelerometerError/transfer(chip:_:)`` naming the chip.
protocol RegisterAccess: Accelerometer {}

extension RegisterAccess {
    func read(_ register: UInt8) throws(AccelerometerError) -> UInt8 {
        do { return try device.readRegister(register) } catch { throw .transfer(chip: chip, error) }
    }

    func write(_ register: UInt8, _ value: UInt8) throws(AccelerometerError) {
        do { try device.writeRegister(register, value) } catch { throw .transfer(chip: chip, error) }
    }

    func readBlock(_ register: UInt8, count: Int) throws(AccelerometerError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try device.readRegisters(register, count: count) } catch { throw .transfer(chip: chip, error) }
        guard bytes.count == count else {
            throw .transfer(chip: chip, SystemError(errno: Errno.inputOutput, call: "i2c block read", argument: device.location, note: "short read: \(bytes.count) of \(count) bytes"))
        }
        return bytes
    }

    /// Checks the identity register.
    package func probe() throws(AccelerometerError) {
        guard let (_, register, expected) = AccelerometerIdentity.all.first(where: { $0.0 == chip }) else { return }
        let found = try read(register)
        guard found == expected else {
            throw .identityMismatch(chip: chip, location: device.location, register: register, expected: expected, found: found)
        }
    }
}

/// `value / step` rounded up, clamped to `range`.
func steps(_ value: Double, of step: Double, in range: ClosedRange<Int>) -> UInt8 {
    let count = (value / step).rounded(.up)
    return UInt8(min(max(Int(count), range.lowerBound), range.upperBound))
}
