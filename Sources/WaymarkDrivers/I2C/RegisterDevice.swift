package import WaymarkSystem

/// A chip's 8-bit register file: what accelerometer drivers program. ``I2CDevice`` is the
/// real one; tests use a recording register file.
package protocol RegisterDevice: AnyObject {
    /// Where the chip is, for error messages: `/dev/i2c-1 address 0x53`.
    var location: String { get }
    /// Reads one register.
    func readRegister(_ register: UInt8) throws(SystemError) -> UInt8
    /// Writes one register.
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(SystemError)
    /// Reads `count` (1...32) consecutive bytes starting at `register` in one transfer.
    func readRegisters(_ register: UInt8, count: Int) throws(SystemError) -> [UInt8]
}
