import WaymarkClock
package import WaymarkHardware

/// InvenSense MPU-6050, accelerometer only (register map RM-MPU-6000A-00 rev 4.2): motion
/// detection interrupt (MOT_THR at 2 mg/LSB in that revision, MOT_DUR at 1 ms/LSB), latched,
/// active high on INT; low power is the accelerometer-only cycle mode with the gyros in standby.
package final class MPU6050: RegisterAccess {
    package let chip = AccelerometerChip.mpu6050
    package let device: any RegisterDevice
    private var range = AccelerationRange.g2

    enum Register {
        static let sampleRateDivider: UInt8 = 0x19
        static let config: UInt8 = 0x1A
        static let accelerometerConfig: UInt8 = 0x1C
        static let motionThreshold: UInt8 = 0x1F
        static let motionDuration: UInt8 = 0x20
        static let interruptPin: UInt8 = 0x37
        static let interruptEnable: UInt8 = 0x38
        static let interruptStatus: UInt8 = 0x3A
        static let data: UInt8 = 0x3B  // ACCEL_XOUT_H … ACCEL_ZOUT_L, big-endian
        static let power1: UInt8 = 0x6B
        static let power2: UInt8 = 0x6C
    }

    /// Cycle-mode wake-up rates (LP_WAKE_CTRL 0…3).
    static let lowPowerRates: [Double] = [1.25, 5, 20, 40]
    static let motionInterrupt: UInt8 = 0x40

    /// A driver for the chip on `device`.
    package init(device: any RegisterDevice) {
        self.device = device
    }

    @discardableResult
    package func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        try write(Register.power1, 0x00)  // awake, internal oscillator
        let scale: UInt8 = settings.range.code
        try write(Register.accelerometerConfig, scale << 3)
        try write(Register.config, 0x00)  // no low-pass filter: 1 kHz accelerometer rate
        range = settings.range
        if settings.lowPower {
            let index = nearestIndex(Self.lowPowerRates, to: settings.outputRate)
            try write(Register.power2, UInt8(index) << 6 | 0x07)  // wake rate, gyros in standby
            try write(Register.power1, 0x28)  // CYCLE, temperature sensor off
            return Self.lowPowerRates[index]
        }
        let divider = steps(1000 / max(settings.outputRate, 4), of: 1, in: 1...256) - 1
        try write(Register.sampleRateDivider, divider)
        try write(Register.power2, 0x07)
        return 1000 / Double(Int(divider) + 1)
    }

    package func armMotionWake(_ wake: MotionWake) throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
        try write(Register.motionThreshold, steps(Double(wake.thresholdMilliG), of: 2, in: 1...255))
        try write(Register.motionDuration, steps(wake.duration.seconds * 1000, of: 1, in: 1...255))
        try write(Register.interruptPin, 0x20)  // active high, push-pull, latched until read
        _ = try read(Register.interruptStatus)
        try write(Register.interruptEnable, Self.motionInterrupt)
    }

    package func disarm() throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
    }

    package func readSample() throws(AccelerometerError) -> AccelerationSample {
        let bytes = try readBlock(Register.data, count: 6)
        let countsPerG = 16384 >> range.code
        func axis(_ index: Int) -> Int {
            Int(Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))) * 1000 / countsPerG
        }
        return AccelerationSample(x: axis(0), y: axis(2), z: axis(4))
    }

    package func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try read(Register.interruptStatus) & Self.motionInterrupt != 0
    }
}
