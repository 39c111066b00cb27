import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkHardware

/// Register sequences of the three drivers, on a recording register file. The VM tests run
/// the same drivers against i2c-stub.
@Suite struct AccelerometerTests {
    @Test func adxl345() throws {
        let chip = RegisterFile([0x00: 0xE5])
        let driver = ADXL345(device: chip)
        try driver.probe()
        #expect(try driver.configure(AccelerometerSettings(range: .g4, outputRate: 12, lowPower: true)) == 12.5)
        try driver.armMotionWake(MotionWake(thresholdMilliG: 200, duration: .zero))
        #expect(chip.writeLog == [
            "2d=00", "31=09", "2c=17", "38=00", "2d=08",  // standby, FULL_RES ±4 g, low power 12.5 Hz, FIFO bypassed, measure
            "2e=00", "24=04", "27=f0", "2f=00", "2e=10",  // 200 mg → 4 × 62.5 mg, ac xyz, INT1, activity
        ])
        chip.registers[0x39] = 1  // one entry
        chip.registers[0x32...0x37] = [0x00, 0x01, 0x00, 0xFF, 0x00, 0x00]  // 256, -256, 0
        #expect(try driver.readFIFO() == FIFORead(samples: [AccelerationSample(x: 998, y: -998, z: 0)], overflowed: false))
        chip.registers[0x30] = 0x10
        #expect(try driver.acknowledgeInterrupt())
    }

    @Test func lis3dh() throws {
        let chip = RegisterFile([0x0F: 0x33])
        let driver = LIS3DH(device: chip)
        try driver.probe()
        #expect(try driver.configure(AccelerometerSettings(range: .g2, outputRate: 10, lowPower: true)) == 10)
        try driver.armMotionWake(MotionWake(thresholdMilliG: 100, duration: .milliseconds(200)))
        #expect(chip.writeLog == [
            "23=80", "20=2f", "2e=00", "24=00",  // BDU ±2 g; 10 Hz, low power, xyz; FIFO bypassed and off
            "22=00", "21=01", "32=07", "33=02", "30=2a", "24=08", "22=40",  // 100 mg → 7 × 16 mg; 2 samples
        ])
        chip.registers[0x2F] = 1  // FSS: one level
        chip.registers[0xA8...0xAD] = [0x00, 0x40, 0x00, 0xC0, 0x00, 0x00]  // left-justified ±0.5 g
        #expect(try driver.readFIFO() == FIFORead(samples: [AccelerationSample(x: 1024, y: -1024, z: 0)], overflowed: false))
    }

    @Test func mpu6050() throws {
        let chip = RegisterFile([0x75: 0x68])
        let driver = MPU6050(device: chip)
        try driver.probe()
        #expect(try driver.configure(AccelerometerSettings(range: .g2, outputRate: 5, lowPower: true)) == 5)
        try driver.armMotionWake(MotionWake(thresholdMilliG: 40, duration: .milliseconds(5)))
        #expect(chip.writeLog == [
            "6b=00", "1c=00", "6a=00", "1a=00", "6c=47", "6b=28",  // awake, ±2 g, no FIFO, no DLPF; cycle at 5 Hz
            "38=00", "1f=14", "20=05", "37=20", "38=40",  // 40 mg → 20 × 2 mg, 5 ms, latched INT
        ])
        chip.registers[0x72...0x73] = [0x00, 0x06]  // FIFO_COUNT: 6 bytes
        chip.registers[0x74...0x79] = [0x40, 0x00, 0xC0, 0x00, 0x00, 0x00]  // +1 g, -1 g, 0
        #expect(try driver.readFIFO() == FIFORead(samples: [AccelerationSample(x: 1000, y: -1000, z: 0)], overflowed: false))
    }

    @Test func mpu6050FullPowerRate() throws {
        let chip = RegisterFile([0x75: 0x68])
        #expect(try MPU6050(device: chip).configure(AccelerometerSettings(range: .g8, outputRate: 100, lowPower: false)) == 100)
        // ±8 g; DLPF 44 Hz, so 1 kHz / 10; gyros in standby; the accelerometer into the FIFO,
        // emptied, enabled.
        #expect(chip.writeLog == ["6b=00", "1c=10", "1a=03", "19=09", "6c=07", "23=08", "6a=04", "6a=40"])
    }

    /// The accelerometer's bandwidth is at most half the output rate (register map 4.3:
    /// 184, 94, 44, 21, 10, 5 Hz for DLPF_CFG 1…6; 5 Hz is the narrowest there is), and the
    /// divider counts from the 1 kHz a filtered chip samples at.
    @Test(arguments: [
        (1000.0, 0x01, 0x00), (200, 0x02, 0x04), (100, 0x03, 0x09), (50, 0x04, 0x13), (25, 0x05, 0x27),
        (12.5, 0x06, 0x4F), (4, 0x06, 0xF9),
    ] as [(Double, UInt8, UInt8)])
    func mpu6050LowPassFilter(rate: Double, filter: UInt8, divider: UInt8) throws {
        let chip = RegisterFile([0x75: 0x68])
        #expect(try MPU6050(device: chip).configure(AccelerometerSettings(outputRate: rate, lowPower: false)) == rate)
        #expect(chip.registers[0x1A] == filter)
        #expect(chip.registers[0x19] == divider)
    }

    /// A paused device that vibrates is sampled with the wake armed (`sample(rate:wake:)`):
    /// normal mode at the sampling rate, then the interrupt, and nothing after it that stops
    /// the chip measuring (each data sheet: the activity interrupt, IA1 and the motion
    /// interrupt work in every measuring mode).
    @Test func samplingWithTheWakeArmed() throws {
        let adxl = RegisterFile([0x00: 0xE5])
        let adxl345 = ADXL345(device: adxl)
        #expect(try adxl345.configure(AccelerometerSettings(outputRate: 100, lowPower: false)) == 100)
        try adxl345.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(adxl.writeLog == [
            "2d=00", "31=08", "2c=0a", "38=80", "2d=08",  // standby, FULL_RES ±2 g, normal 100 Hz, FIFO streams, measure
            "2e=00", "24=01", "27=f0", "2f=00", "2e=10",  // 60 mg → 1 × 62.5 mg, ac xyz, INT1, activity
        ])
        let lis = RegisterFile([0x0F: 0x33])
        let lis3dh = LIS3DH(device: lis)
        #expect(try lis3dh.configure(AccelerometerSettings(outputRate: 100, lowPower: false)) == 100)
        try lis3dh.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(lis.writeLog == [
            "23=80", "20=57", "2e=00", "24=40", "2e=80",  // BDU ±2 g; 100 Hz, normal, xyz; FIFO emptied, on, streams
            "22=00", "21=01", "32=04", "33=00", "30=2a", "24=48", "22=40",  // 60 mg → 4 × 16 mg, one sample; FIFO stays on
        ])
        let mpu = RegisterFile([0x75: 0x68])
        let mpu6050 = MPU6050(device: mpu)
        #expect(try mpu6050.configure(AccelerometerSettings(outputRate: 100, lowPower: false)) == 100)
        try mpu6050.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(mpu.writeLog == [
            "6b=00", "1c=00", "1a=03", "19=09", "6c=07", "23=08", "6a=04", "6a=40",  // awake, ±2 g, 44 Hz DLPF, 1 kHz / 10, FIFO
            "38=00", "1f=1e", "20=01", "37=20", "38=40",  // 60 mg → 30 × 2 mg, 1 ms, latched INT
        ])
    }

    // MARK: - FIFOs, on register files that model them

    func samples(_ count: Int) -> [(Int16, Int16, Int16)] {
        (0..<count).map { (Int16($0 * 64), Int16(-$0 * 64), 256) }
    }

    @Test func adxl345ReadsEveryEntryOfItsFIFO() throws {
        let chip = RegisterFile([0x00: 0xE5])
        chip.fifoRegister = 0x32
        chip.fifoStatus = { $0.registers[0x39] = UInt8(min($0.fifo.count / 6, 32)) }  // FIFO_STATUS entries
        let driver = ADXL345(device: chip)
        try driver.configure(AccelerometerSettings(outputRate: 50, lowPower: false))
        chip.queue(samples(5))
        let read = try driver.readFIFO()
        #expect(read.samples == (0..<5).map { AccelerationSample(x: $0 * 64 * 39 / 10, y: -$0 * 64 * 39 / 10, z: 998) })
        #expect(!read.overflowed && chip.fifo.isEmpty)
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: false))
        // Full: the data sheet's overrun in stream mode; all 32 are read.
        chip.queue(samples(32))
        #expect(try driver.readFIFO().samples.count == 32)
        // A chip that claims 63 entries gets 32 reads, no more.
        try expectAtMost32Reads(driver, chip) { $0.registers[0x39] = 0x3F }
    }

    /// A chip whose status `claims` more than it can hold: the driver reads 32 samples, no
    /// more, and says the FIFO overflowed.
    func expectAtMost32Reads(_ driver: any Accelerometer, _ chip: RegisterFile, claims: @escaping (RegisterFile) -> Void) throws {
        chip.fifoStatus = claims
        chip.queue(samples(40))
        let reads = chip.blockReads
        let read = try driver.readFIFO()
        #expect(chip.blockReads - reads == 32)
        #expect(read.samples.count == 32 && read.overflowed)
    }

    @Test func lis3dhReadsEveryLevelOfItsFIFO() throws {
        let chip = RegisterFile([0x0F: 0x33])
        chip.fifoRegister = 0xA8  // OUT_X_L with the auto-increment bit
        chip.fifoStatus = { file in  // FIFO_SRC_REG: OVRN_FIFO with all 32 levels full, else EMPTY or FSS
            let count = file.fifo.count / 6
            file.registers[0x2F] = count >= 32 ? 0x40 | 0x1F : count == 0 ? 0x20 : UInt8(count)
        }
        let driver = LIS3DH(device: chip)
        try driver.configure(AccelerometerSettings(range: .g4, outputRate: 50, lowPower: false))
        chip.queue(samples(3))
        #expect(try driver.readFIFO() == FIFORead(samples: (0..<3).map { AccelerationSample(x: $0 * 8, y: -$0 * 8, z: 32) }, overflowed: false))
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: false))
        chip.queue(samples(32))
        let full = try driver.readFIFO()
        #expect(full.samples.count == 32 && full.overflowed && chip.fifo.isEmpty)
        // Every bit set: 32 reads, no more.
        try expectAtMost32Reads(driver, chip) { $0.registers[0x2F] = 0xFF }
    }

    @Test func mpu6050ReadsItsFIFOInBurstsAndEmptiesItAfterAnOverflow() throws {
        let chip = RegisterFile([0x75: 0x68])
        chip.fifoRegister = 0x74
        chip.fifoStatus = { $0.registers[0x72...0x73] = [UInt8($0.fifo.count >> 8), UInt8($0.fifo.count & 0xFF)] }
        chip.clearOnRead = [0x3A]
        let driver = MPU6050(device: chip)
        try driver.configure(AccelerometerSettings(range: .g2, outputRate: 50, lowPower: false))
        chip.queue(samples(12), bigEndian: true)
        let reads = chip.blockReads
        let read = try driver.readFIFO()
        #expect(read.samples == (0..<12).map { AccelerationSample(x: $0 * 64 * 1000 / 16384, y: -$0 * 64 * 1000 / 16384, z: 15) })
        #expect(!read.overflowed && chip.fifo.isEmpty)
        #expect(chip.blockReads - reads == 4)  // the count, then 30 + 30 + 12 bytes
        // A part of a sample stays for the next read.
        chip.queue(samples(1), bigEndian: true)
        chip.fifo.append(0x01)
        chip.fifoStatus(chip)
        #expect(try driver.readFIFO().samples.count == 1)
        #expect(chip.fifo == [0x01])
        // FIFO_OFLOW_INT: nothing read, the FIFO emptied (reset, then enabled again).
        chip.registers[0x3A] = 0x10
        let writes = chip.writeLog.count
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: true))
        #expect(chip.writeLog.dropFirst(writes) == ["6a=04", "6a=40"])
        // A count no FIFO of 1024 bytes reaches without overflowing: no data read at all.
        chip.fifoStatus = { $0.registers[0x72...0x73] = [0xFF, 0xFF] }
        chip.queue(samples(200), bigEndian: true)
        let before = chip.blockReads
        #expect(try driver.readFIFO() == FIFORead(samples: [], overflowed: true))
        #expect(chip.blockReads - before == 1)
    }

    /// The activity interrupt is still seen while the FIFO runs, and reading the FIFO does
    /// not lose it (the MPU-6050's INT_STATUS holds both and clears on read).
    @Test(arguments: [
        (AccelerometerChip.adxl345, 0x30, 0x10, 0x39, 2),  // INT_SOURCE activity; FIFO_STATUS 2 entries
        (.lis3dh, 0x31, 0x40, 0x2F, 2),  // INT1_SRC IA; FIFO_SRC_REG FSS 2
        (.mpu6050, 0x3A, 0x40, 0x73, 12),  // INT_STATUS MOT_INT; FIFO_COUNT_L 12 bytes
    ] as [(AccelerometerChip, UInt8, UInt8, UInt8, UInt8)])
    func theWakeInterruptIsSeenWhileTheFIFORuns(
        chip: AccelerometerChip, source: UInt8, activity: UInt8, count: UInt8, value: UInt8
    ) throws {
        let file = RegisterFile()
        file.clearOnRead = [source]
        let driver = makeAccelerometer(chip, on: file)
        try driver.configure(AccelerometerSettings(outputRate: 50, lowPower: false))
        try driver.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        file.registers[Int(source)] = activity
        file.registers[Int(count)] = value
        let read = try driver.readFIFO()
        #expect(read.samples.count == 2 && !read.overflowed)
        #expect(try driver.acknowledgeInterrupt())
        #expect(try !driver.acknowledgeInterrupt())
    }

    /// The simulation arms its motion wake at `AccelerometerChip.wakeRate`: what each driver
    /// applies when the daemon asks for its wake rate in low power.
    @Test(arguments: AccelerometerChip.allCases)
    func theWakeRateIsWhatTheDriverApplies(chip: AccelerometerChip) throws {
        let driver = makeAccelerometer(chip, on: RegisterFile())
        let applied = try driver.configure(AccelerometerSettings(outputRate: AccelerometerChip.requestedWakeRate, lowPower: true))
        #expect(applied == chip.wakeRate)
        #expect([12.5, 10, 5][AccelerometerChip.allCases.firstIndex(of: chip) ?? 0] == chip.wakeRate)
    }

    @Test func anIdentityMismatchNamesEverything() {
        let chip = RegisterFile([0x0F: 0x33])  // a LIS3DH where an ADXL345 was expected
        #expect(throws: AccelerometerError.self) { try ADXL345(device: chip).probe() }
        do {
            try ADXL345(device: RegisterFile([0x00: 0x33])).probe()
        } catch {
            #expect(error.description.hasPrefix("adxl345 on register file: ID register 0x00 reads 0x33, expected 0xE5. Fix: check accelerometer.chip"))
        }
        do {
            try MPU6050(device: RegisterFile([0x75: 0x33, 0x0F: 0x33])).probe()
        } catch {
            #expect(error == .identityMismatch(chip: .mpu6050, location: "register file", register: 0x75, expected: 0x68, found: 0x33))
        }
    }

    @Test func theFactoryPicksTheDriver() {
        #expect(makeAccelerometer(.lis3dh, on: RegisterFile()).chip == .lis3dh)
        #expect(makeAccelerometer(.mpu6050, on: RegisterFile()).chip == .mpu6050)
    }
}

@Suite("INA219 and INA226 current sensors")
struct CurrentSensorTests {
    @Test("the shunt register (most significant byte first) becomes milliamperes")
    func conversion() {
        // INA219: 0x0FA0 = 4000 × 10 µV = 40 mV across 0.1 Ω = 400 mA; SMBus swaps the bytes.
        #expect(abs(CurrentSensor.milliamperes(smbusWord: 0xA00F, chip: .ina219, shuntOhms: 0.1) - 400) < 1e-9)
        // INA226: 0x2EE0 = 12000 × 2.5 µV = 30 mV across 1 Ω = 30 mA.
        #expect(abs(CurrentSensor.milliamperes(smbusWord: 0xE02E, chip: .ina226, shuntOhms: 1) - 30) < 1e-9)
        // Negative: 0xFFF6 = -10 LSB.
        #expect(abs(CurrentSensor.milliamperes(smbusWord: 0xF6FF, chip: .ina219, shuntOhms: 0.1) + 1) < 1e-9)
    }
}
