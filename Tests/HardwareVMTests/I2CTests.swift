import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem
import WaymarkHardware

/// The accelerometer drivers against the kernel's i2c-stub (chips at 0x53, 0x18, 0x68 and
/// an empty 0x1d; `Scripts/vm-test` asks for them). Each test plays the chip: it writes the
/// identity, FIFO count and sample registers into the stub, runs the driver, and reads back
/// every register the driver programmed through the kernel's SMBus path. The stub is plain
/// register memory: a FIFO read there takes nothing out, so every sample of one read is the
/// same registers.
@Suite(.enabled(if: VM.isInside, "runs inside the qemu VM (Scripts/vm-test)"))
struct I2CTests {
    func device(_ address: UInt8) throws -> I2CDevice {
        try I2CDevice(bus: VM.i2cBus, address: address)
    }

    func registers(_ device: I2CDevice, _ list: [UInt8]) throws -> [UInt8] {
        try list.map { register throws(SystemError) in try device.readRegister(register) }
    }

    @Test func adxl345() throws {
        let chip = try device(0x53)
        defer { try? chip.close() }
        try chip.writeRegister(0x00, 0xE5)
        let driver = ADXL345(device: chip)
        try driver.probe()
        try driver.configure(AccelerometerSettings(range: .g4, outputRate: 12.5, lowPower: true))
        try driver.armMotionWake(MotionWake(thresholdMilliG: 200, duration: .zero))
        // THRESH_ACT, ACT_INACT_CTL, BW_RATE, POWER_CTL, INT_ENABLE, INT_MAP, DATA_FORMAT, FIFO_CTL
        #expect(try registers(chip, [0x24, 0x27, 0x2C, 0x2D, 0x2E, 0x2F, 0x31, 0x38]) == [0x04, 0xF0, 0x17, 0x08, 0x10, 0x00, 0x09, 0x00])
        // Sampling: normal mode at 50 Hz, the FIFO in stream mode.
        try driver.configure(AccelerometerSettings(range: .g4, outputRate: 50, lowPower: false))
        #expect(try registers(chip, [0x2C, 0x2D, 0x38]) == [0x09, 0x08, 0x80])
        try chip.writeRegisters(0x32, [0x00, 0x01, 0x00, 0xFF, 0x00, 0x00])
        try chip.writeRegister(0x39, 2)  // FIFO_STATUS: two entries
        let sample = AccelerationSample(x: 998, y: -998, z: 0)
        #expect(try driver.readFIFO() == FIFORead(samples: [sample, sample], overflowed: false))
        try chip.writeRegister(0x30, 0x10)
        #expect(try driver.acknowledgeInterrupt())
        try driver.disarm()
        #expect(try chip.readRegister(0x2E) == 0x00)
    }

    @Test func lis3dh() throws {
        let chip = try device(0x18)
        defer { try? chip.close() }
        try chip.writeRegister(0x0F, 0x33)
        let driver = LIS3DH(device: chip)
        try driver.probe()
        try driver.configure(AccelerometerSettings(range: .g2, outputRate: 10, lowPower: true))
        try driver.armMotionWake(MotionWake(thresholdMilliG: 100, duration: .milliseconds(200)))
        // CTRL_REG1…5, INT1_CFG, INT1_THS, INT1_DURATION, FIFO_CTRL_REG
        #expect(try registers(chip, [0x20, 0x21, 0x22, 0x23, 0x24, 0x30, 0x32, 0x33, 0x2E]) == [0x2F, 0x01, 0x40, 0x80, 0x08, 0x2A, 0x07, 0x02, 0x00])
        // Sampling with the wake armed: 50 Hz normal mode, the FIFO on and streaming, INT1 latched.
        try driver.configure(AccelerometerSettings(range: .g2, outputRate: 50, lowPower: false))
        try driver.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(try registers(chip, [0x20, 0x24, 0x2E]) == [0x47, 0x48, 0x80])
        // The stub has no auto-increment: the burst read of OUT_X_L | 0x80 reads 0xA8….
        try chip.writeRegisters(0xA8, [0x00, 0x40, 0x00, 0xC0, 0x00, 0x00])
        try chip.writeRegister(0x2F, 0x03)  // FIFO_SRC_REG: FSS 3
        let sample = AccelerationSample(x: 1024, y: -1024, z: 0)
        #expect(try driver.readFIFO() == FIFORead(samples: [sample, sample, sample], overflowed: false))
        try chip.writeRegister(0x2F, 0x20)  // EMPTY
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: false))
    }

    @Test func mpu6050() throws {
        let chip = try device(0x68)
        defer { try? chip.close() }
        try chip.writeRegister(0x75, 0x68)
        let driver = MPU6050(device: chip)
        try driver.probe()
        try driver.configure(AccelerometerSettings(range: .g2, outputRate: 5, lowPower: true))
        try driver.armMotionWake(MotionWake(thresholdMilliG: 40, duration: .milliseconds(5)))
        // ACCEL_CONFIG, MOT_THR, MOT_DUR, INT_PIN_CFG, INT_ENABLE, PWR_MGMT_1, PWR_MGMT_2, USER_CTRL
        #expect(try registers(chip, [0x1C, 0x1F, 0x20, 0x37, 0x38, 0x6B, 0x6C, 0x6A]) == [0x00, 0x14, 0x05, 0x20, 0x40, 0x28, 0x47, 0x00])
        // Sampling at 50 Hz: DLPF 21 Hz, 1 kHz / 20, the accelerometer into the FIFO, FIFO on.
        try driver.configure(AccelerometerSettings(range: .g2, outputRate: 50, lowPower: false))
        // CONFIG, SMPLRT_DIV, FIFO_EN, USER_CTRL, PWR_MGMT_1
        #expect(try registers(chip, [0x1A, 0x19, 0x23, 0x6A, 0x6B]) == [0x04, 0x13, 0x08, 0x40, 0x00])
        try chip.writeRegister(0x3A, 0x00)  // INT_STATUS: no overflow
        try chip.writeRegisters(0x72, [0x00, 0x0C])  // FIFO_COUNT: 12 bytes, two samples
        try chip.writeRegisters(0x74, [0x40, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0xC0, 0x00])
        #expect(try driver.readFIFO() == FIFORead(samples: [AccelerationSample(x: 1000, y: -1000, z: 0), AccelerationSample(x: 0, y: 1000, z: -1000)], overflowed: false))
        try chip.writeRegister(0x3A, 0x10)  // FIFO_OFLOW_INT: emptied, nothing read
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: true))
        #expect(try chip.readRegister(0x6A) == 0x40)
    }

    @Test func aWrongChipIsNamed() throws {
        let chip = try device(0x1D)
        defer { try? chip.close() }
        #expect(throws: AccelerometerError.identityMismatch(chip: .adxl345, location: "/dev/i2c-0 address 0x1d", register: 0x00, expected: 0xE5, found: 0x00)) {
            try ADXL345(device: chip).probe()
        }
    }

    @Test func noChipAtAnAddressIsAnErrorNamingIt() throws {
        let chip = try device(0x42)
        defer { try? chip.close() }
        do {
            _ = try chip.readRegister(0x00)
            Issue.record("a transfer to an empty address succeeded")
        } catch {
            // i2c-stub answers ENODEV (not retried); a real bus NACKs with ENXIO or EREMOTEIO.
            #expect(error.argument == "/dev/i2c-0 address 0x42")
            #expect(error.call == "i2c read byte data")
        }
    }

    @Test func wordTransfers() throws {
        let chip = try device(0x1D)
        defer { try? chip.close() }
        try chip.writeWord(0x40, 0xBEEF)
        #expect(try chip.readWord(0x40) == 0xBEEF)
        #expect(try chip.readRegister(0x40) == 0xEF)
    }
}
