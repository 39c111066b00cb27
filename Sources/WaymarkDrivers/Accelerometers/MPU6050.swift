import WaymarkClock
package import WaymarkHardware

/// InvenSense MPU-6050, accelerometer only (register map RM-MPU-6000A-00 rev 4.2): motion
/// detection interrupt (MOT_THR at 2 mg/LSB in that revision, MOT_DUR at 1 ms/LSB), latched,
/// active high on INT; low power is the accelerometer-only cycle mode with the gyros in standby.
/// In normal mode the digital low-pass filter keeps the accelerometer's bandwidth at half the
/// output rate at most (an idling engine at 20–30 Hz would otherwise alias into a slow wobble
/// at 50 Hz), and the accelerometer's samples go into the 1024-byte FIFO (170 samples of 6
/// bytes), read through FIFO_R_W.
package final class MPU6050: RegisterAccess {
    package let chip = AccelerometerChip.mpu6050
    package let device: any RegisterDevice
    private var range = AccelerationRange.g2
    /// INT_STATUS clears on read: the bits one reader finds are kept for the other
    /// (``readFIFO()`` wants the overflow, ``acknowledgeInterrupt()`` the motion).
    private var status: UInt8 = 0

    enum Register {
        static let sampleRateDivider: UInt8 = 0x19
        static let config: UInt8 = 0x1A
        static let accelerometerConfig: UInt8 = 0x1C
        static let motionThreshold: UInt8 = 0x1F
        static let motionDuration: UInt8 = 0x20
        static let fifoEnable: UInt8 = 0x23  // FIFO_EN: ACCEL_FIFO_EN is bit 3
        static let interruptPin: UInt8 = 0x37
        static let interruptEnable: UInt8 = 0x38
        static let interruptStatus: UInt8 = 0x3A
        static let userControl: UInt8 = 0x6A  // USER_CTRL: FIFO_EN bit 6, FIFO_RESET bit 2
        static let power1: UInt8 = 0x6B
        static let power2: UInt8 = 0x6C
        static let fifoCount: UInt8 = 0x72  // FIFO_COUNT_H, FIFO_COUNT_L: bytes, big-endian
        static let fifoData: UInt8 = 0x74  // FIFO_R_W
    }

    /// Cycle-mode wake-up rates (LP_WAKE_CTRL 0…3).
    static let lowPowerRates = AccelerometerChip.mpu6050.lowPowerRates
    static let motionInterrupt: UInt8 = 0x40
    static let fifoOverflow: UInt8 = 0x10  // FIFO_OFLOW_INT in INT_STATUS
    /// DLPF_CFG 1…6: the accelerometer's bandwidth in hertz (0 is 260 Hz but switches the
    /// gyroscope output, and so the sample-rate divider's base, to 8 kHz).
    static let filterBandwidths: [Double] = [184, 94, 44, 21, 10, 5]
    /// The FIFO's size in bytes and in whole accelerometer samples.
    static let fifoBytes = 1024
    package let fifoDepth = fifoBytes / 6
    /// Samples per FIFO_R_W transfer (a block read carries 32 bytes at most).
    static let samplesPerTransfer = 5

    /// A driver for the chip on `device`.
    package init(device: any RegisterDevice) {
        self.device = device
    }

    @discardableResult
    package func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        try write(Register.power1, 0x00)  // awake, internal oscillator
        let scale: UInt8 = settings.range.code
        try write(Register.accelerometerConfig, scale << 3)
        range = settings.range
        if settings.lowPower {
            try write(Register.userControl, 0x00)  // FIFO off
            try write(Register.config, 0x00)
            let index = nearestRateIndex(Self.lowPowerRates, to: settings.outputRate)
            try write(Register.power2, UInt8(index) << 6 | 0x07)  // wake rate, gyros in standby
            try write(Register.power1, 0x28)  // CYCLE, temperature sensor off
            return Self.lowPowerRates[index]
        }
        // With the filter on, the sample-rate divider counts from 1 kHz.
        let divider = steps(1000 / max(settings.outputRate, 4), of: 1, in: 1...256) - 1
        let rate = 1000 / Double(Int(divider) + 1)
        let filter = Self.filterBandwidths.firstIndex { $0 <= rate / 2 } ?? Self.filterBandwidths.count - 1
        try write(Register.config, UInt8(filter + 1))
        try write(Register.sampleRateDivider, divider)
        try write(Register.power2, 0x07)
        try write(Register.fifoEnable, 0x08)  // the accelerometer's samples only
        try write(Register.userControl, 0x04)  // FIFO_RESET (with FIFO_EN clear) empties it
        try write(Register.userControl, 0x40)  // FIFO_EN
        _ = try take(Self.fifoOverflow)  // an overflow of an earlier run
        return rate
    }

    package func armMotionWake(_ wake: MotionWake) throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
        try write(Register.motionThreshold, steps(Double(wake.thresholdMilliG), of: 2, in: 1...255))
        try write(Register.motionDuration, steps(wake.duration.seconds * 1000, of: 1, in: 1...255))
        try write(Register.interruptPin, 0x20)  // active high, push-pull, latched until read
        _ = try read(Register.interruptStatus)
        status = 0
        try write(Register.interruptEnable, Self.motionInterrupt)
    }

    package func disarm() throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
    }

    /// After an overflow the FIFO's oldest sample has been partly overwritten (1024 is no
    /// multiple of 6), so its bytes no longer start at a sample: it is emptied and nothing is
    /// read. A count above 1020 bytes cannot be reached without one.
    package func readFIFO() throws(AccelerometerError) -> FIFORead {
        let overflowed = try take(Self.fifoOverflow)
        let count = try readBlock(Register.fifoCount, count: 2)
        let bytes = Int(count[0]) << 8 | Int(count[1])
        guard !overflowed && bytes <= fifoDepth * 6 else {
            try write(Register.userControl, 0x04)
            try write(Register.userControl, 0x40)
            return FIFORead(samples: [], overflowed: true)
        }
        var samples: [AccelerationSample] = []
        var left = bytes / 6
        while left > 0 {
            let transfer = min(left, Self.samplesPerTransfer)
            let block = try readBlock(Register.fifoData, count: transfer * 6)
            for start in stride(from: 0, to: block.count, by: 6) { samples.append(sample(block[start..<start + 6])) }
            left -= transfer
        }
        return FIFORead(samples: samples, overflowed: false)
    }

    package func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try take(Self.motionInterrupt)
    }

    /// Reads INT_STATUS and takes `bit` out of what it and earlier reads found.
    private func take(_ bit: UInt8) throws(AccelerometerError) -> Bool {
        status |= try read(Register.interruptStatus)
        defer { status &= ~bit }
        return status & bit != 0
    }

    /// A sample as the FIFO holds it (ACCEL_XOUT_H … ACCEL_ZOUT_L, big-endian) in milli-g at the configured range.
    private func sample(_ bytes: ArraySlice<UInt8>) -> AccelerationSample {
        let countsPerG = 16384 >> range.code
        func axis(_ offset: Int) -> Int {
            let index = bytes.startIndex + offset
            return Int(Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))) * 1000 / countsPerG
        }
        return AccelerationSample(x: axis(0), y: axis(2), z: axis(4))
    }
}
