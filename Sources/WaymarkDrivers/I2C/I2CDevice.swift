import CWaymarkDrivers
package import WaymarkSystem

/// One chip on an I2C bus (`/dev/i2c-N`), spoken to with SMBus transfers: byte data, word
/// data and I2C block data. These work on the Pi's i2c-bcm2835 and on i2c-stub alike; plain
/// `I2C_RDWR` messages are never used.
///
/// A transfer that fails with a bus error (NACK, timeout, arbitration loss) is retried up to
/// ``retries`` times before the error is thrown; ``retriedTransfers`` counts the retries.
package final class I2CDevice: RegisterDevice {
    /// The bus device, such as `/dev/i2c-1`.
    package let bus: String
    /// The chip's 7-bit address.
    package let address: UInt8
    /// Extra attempts after a failed transfer.
    package let retries: Int
    /// Retries so far, for diagnostics.
    package private(set) var retriedTransfers = 0
    private let descriptor: FileDescriptor

    /// Opens `bus` and addresses `address` on it (ioctl `I2C_SLAVE`).
    package init(bus: String, address: UInt8, retries: Int = 2) throws(SystemError) {
        let descriptor = try FileDescriptor.open(bus, .readWrite)
        let result = waymark_i2c_set_address(descriptor.rawValue, UInt16(address))
        if result < 0 {
            try? descriptor.close()
            throw SystemError(errno: -result, call: "ioctl(I2C_SLAVE)", argument: bus)
        }
        self.bus = bus
        self.address = address
        self.retries = retries
        self.descriptor = descriptor
    }

    package var location: String { "\(bus) address 0x\(String(address, radix: 16))" }

    package func readRegister(_ register: UInt8) throws(SystemError) -> UInt8 {
        UInt8(try transfer("read byte data") { waymark_i2c_read_byte_data($0, register) })
    }

    package func writeRegister(_ register: UInt8, _ value: UInt8) throws(SystemError) {
        _ = try transfer("write byte data") { waymark_i2c_write_byte_data($0, register, value) }
    }

    /// SMBus read word data: the little-endian word at `register`.
    package func readWord(_ register: UInt8) throws(SystemError) -> UInt16 {
        UInt16(try transfer("read word data") { waymark_i2c_read_word_data($0, register) })
    }

    /// SMBus write word data (little-endian).
    package func writeWord(_ register: UInt8, _ value: UInt16) throws(SystemError) {
        _ = try transfer("write word data") { waymark_i2c_write_word_data($0, register, value) }
    }

    package func readRegisters(_ register: UInt8, count: Int) throws(SystemError) -> [UInt8] {
        var values = [UInt8](repeating: 0, count: count)
        let read = try transfer("I2C block read") { fd in
            values.withUnsafeMutableBufferPointer {
                waymark_i2c_read_block(fd, register, UInt8(count), $0.baseAddress)
            }
        }
        return Array(values.prefix(Int(read)))
    }

    /// SMBus I2C block write of `values` (1...32 bytes) starting at `register`.
    package func writeRegisters(_ register: UInt8, _ values: [UInt8]) throws(SystemError) {
        _ = try transfer("I2C block write") { fd in
            values.withUnsafeBufferPointer { waymark_i2c_write_block(fd, register, UInt8(values.count), $0.baseAddress) }
        }
    }

    /// Closes the bus device.
    package func close() throws(SystemError) {
        try descriptor.close()
    }

    private func transfer(_ call: String, _ body: (Int32) -> Int32) throws(SystemError) -> Int32 {
        var attempt = 0
        while true {
            let result = body(descriptor.rawValue)
            if result >= 0 { return result }
            let error = SystemError(errno: -result, call: "i2c \(call)", argument: location)
            guard attempt < retries, Self.isTransient(-result) else { throw error }
            attempt += 1
            retriedTransfers += 1
        }
    }

    /// Bus errors that a repeat can clear: NACK (ENXIO, EREMOTEIO), timeout, arbitration
    /// loss (EAGAIN), and a generic I/O error.
    private static func isTransient(_ code: Int32) -> Bool {
        [Errno.noDeviceOrAddress, Errno.remoteIO, Errno.timedOut, Errno.tryAgain, Errno.inputOutput].contains(code)
    }
}
