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
            "2d=00", "31=09", "2c=17", "2d=08",  // standby, FULL_RES ±4 g, low power 12.5 Hz, measure
            "2e=00", "24=04", "27=f0", "2f=00", "2e=10",  // 200 mg → 4 × 62.5 mg, ac xyz, INT1, activity
        ])
        chip.registers[0x32...0x37] = [0x00, 0x01, 0x00, 0xFF, 0x00, 0x00]  // 256, -256, 0
        #expect(try driver.readSample() == AccelerationSample(x: 998, y: -998, z: 0))
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
            "23=80", "20=2f",  // BDU ±2 g; 10 Hz, low power, xyz
            "22=00", "21=01", "32=07", "33=02", "30=2a", "24=08", "22=40",  // 100 mg → 7 × 16 mg; 2 samples
        ])
        chip.registers[0xA8...0xAD] = [0x00, 0x40, 0x00, 0xC0, 0x00, 0x00]  // left-justified ±0.5 g
        #expect(try driver.readSample() == AccelerationSample(x: 1024, y: -1024, z: 0))
    }

    @Test func mpu6050() throws {
        let chip = RegisterFile([0x75: 0x68])
        let driver = MPU6050(device: chip)
        try driver.probe()
        #expect(try driver.configure(AccelerometerSettings(range: .g2, outputRate: 5, lowPower: true)) == 5)
        try driver.armMotionWake(MotionWake(thresholdMilliG: 40, duration: .milliseconds(5)))
        #expect(chip.writeLog == [
            "6b=00", "1c=00", "1a=00", "6c=47", "6b=28",  // awake, ±2 g, no DLPF; cycle at 5 Hz
            "38=00", "1f=14", "20=05", "37=20", "38=40",  // 40 mg → 20 × 2 mg, 5 ms, latched INT
        ])
        chip.registers[0x3B...0x40] = [0x40, 0x00, 0xC0, 0x00, 0x00, 0x00]  // +1 g, -1 g, 0
        #expect(try driver.readSample() == AccelerationSample(x: 1000, y: -1000, z: 0))
    }

    @Test func mpu6050FullPowerRate() throws {
        let chip = RegisterFile([0x75: 0x68])
        #expect(try MPU6050(device: chip).configure(AccelerometerSettings(range: .g8, outputRate: 100, lowPower: false)) == 100)
        #expect(chip.writeLog == ["6b=00", "1c=10", "1a=00", "19=09", "6c=07"])
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
            "2d=00", "31=08", "2c=0a", "2d=08",  // standby, FULL_RES ±2 g, normal 100 Hz, measure
            "2e=00", "24=01", "27=f0", "2f=00", "2e=10",  // 60 mg → 1 × 62.5 mg, ac xyz, INT1, activity
        ])
        let lis = RegisterFile([0x0F: 0x33])
        let lis3dh = LIS3DH(device: lis)
        #expect(try lis3dh.configure(AccelerometerSettings(outputRate: 100, lowPower: false)) == 100)
        try lis3dh.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(lis.writeLog == [
            "23=80", "20=57",  // BDU ±2 g; 100 Hz, normal mode, xyz
            "22=00", "21=01", "32=04", "33=00", "30=2a", "24=08", "22=40",  // 60 mg → 4 × 16 mg, one sample
        ])
        let mpu = RegisterFile([0x75: 0x68])
        let mpu6050 = MPU6050(device: mpu)
        #expect(try mpu6050.configure(AccelerometerSettings(outputRate: 100, lowPower: false)) == 100)
        try mpu6050.armMotionWake(MotionWake(thresholdMilliG: 60, duration: .zero))
        #expect(mpu.writeLog == [
            "6b=00", "1c=00", "1a=00", "19=09", "6c=07",  // awake (no cycle), ±2 g, 1 kHz / 10
            "38=00", "1f=1e", "20=01", "37=20", "38=40",  // 60 mg → 30 × 2 mg, 1 ms, latched INT
        ])
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
