import WaymarkDrivers
import WaymarkSystem

/// A test double for a chip's registers: 256 bytes, every write recorded in order, block
/// reads served from consecutive registers (as i2c-stub does), except from a FIFO's data
/// register (``fifo``).
///
/// A FIFO is a queue behind one register: a block read there takes its bytes from the front
/// of the queue (one 6-byte entry per read on the ADXL345 and LIS3DH, any count from the
/// MPU-6050's FIFO_R_W), and `fifoStatus` then writes the chip's count and flags for what is
/// left.
final class RegisterFile: RegisterDevice {
    var registers = [UInt8](repeating: 0, count: 256)
    private(set) var writes: [(UInt8, UInt8)] = []
    private(set) var reads: [UInt8] = []
    /// Registers whose reads clear them (interrupt sources).
    var clearOnRead: Set<UInt8> = []
    /// The register a FIFO is read through, and its queue of bytes.
    var fifoRegister: UInt8?
    var fifo: [UInt8] = []
    /// Writes the count registers for what the FIFO holds.
    var fifoStatus: (RegisterFile) -> Void = { _ in }
    /// How many block reads were served, from the FIFO or not.
    private(set) var blockReads = 0

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
        blockReads += 1
        guard register == fifoRegister else { return Array(registers[Int(register)..<Int(register) + count]) }
        let taken = Array(fifo.prefix(count))
        fifo.removeFirst(taken.count)
        fifoStatus(self)
        return taken + [UInt8](repeating: 0, count: count - taken.count)
    }

    /// Queues samples of three 16-bit axes, each in the byte order `bigEndian` says.
    func queue(_ samples: [(Int16, Int16, Int16)], bigEndian: Bool = false) {
        for (x, y, z) in samples {
            for axis in [x, y, z] {
                let word = UInt16(bitPattern: axis)
                let high = UInt8(word >> 8), low = UInt8(word & 0xFF)
                fifo += bigEndian ? [high, low] : [low, high]
            }
        }
        fifoStatus(self)
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
