import WaymarkDrivers
import WaymarkSystem

/// A test double for a chip's registers: 256 bytes, every write recorded in order, block
/// reads served from consecutive registers (as i2c-stub does).
final class RegisterFile: RegisterDevice {
    var registers = [UInt8](repeating: 0, count: 256)
    private(set) var writes: [(UInt8, UInt8)] = []
    private(set) var reads: [UInt8] = []
    /// Registers whose reads clear them (interrupt sources).
    var clearOnRead: Set<UInt8> = []

    let location = "register file"

    init(_ preset: [UInt8: UInt8] = [:]) {
        for (register, value) in preset { registers[Int(register)] = value }
    }

    func readRegister(_ register: UInt8) throws(SystemError) -> UInt8 {
        reads.append(register)
        let value = registers[Int(register)]
        if clearOnRead.contains(register) { registers[Int(register)] = 0 }
        return value
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) throws(SystemError) {
        writes.append((register, value))
        registers[Int(register)] = value
    }

    func readRegisters(_ register: UInt8, count: Int) throws(SystemError) -> [UInt8] {
        Array(registers[Int(register)..<Int(register) + count])
    }

    /// The writes as "reg=value" hex pairs, for readable expectations.
    var writeLog: [String] {
        writes.map { "\(hex($0.0))=\(hex($0.1))" }
    }

    private func hex(_ value: UInt8) -> String {
        let text = String(value, radix: 16)
        return value < 16 ? "0" + text : text
    }
}
