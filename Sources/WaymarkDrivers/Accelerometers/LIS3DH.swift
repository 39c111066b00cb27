import WaymarkClock
package import WaymarkHardware

/// ST LIS3DH (data sheet DocID17530 Rev 2): interrupt generator 1 on the high-pass filtered
/// signal (so gravity does not count), OR of the X/Y/Z high events, latched, on INT1. There is
/// no low-pass filter to program: the ODR bits set the output chain's bandwidth with the rate
/// (ODR/2 in ST's application note AN3308; the data sheet gives no figure). While it measures
/// in normal mode its 32-level FIFO runs in stream mode (section 5.1.3); each 6-byte read of
/// the output registers takes one level out of it.
package final class LIS3DH: RegisterAccess {
    package let chip = AccelerometerChip.lis3dh
    package let device: any RegisterDevice
    private var range = AccelerationRange.g2
    private var outputRate = 10.0
    /// Whether the FIFO runs: CTRL_REG5 holds its enable beside the interrupt latch.
    private var fifoEnabled = false

    enum Register {
        static let control1: UInt8 = 0x20  // ODR, LPen, axis enables
        static let control2: UInt8 = 0x21  // high-pass filter
        static let control3: UInt8 = 0x22  // INT1 routing
        static let control4: UInt8 = 0x23  // BDU, full scale
        static let control5: UInt8 = 0x24  // FIFO_EN, interrupt latch
        static let reference: UInt8 = 0x26
        static let output: UInt8 = 0x28  // OUT_X_L … OUT_Z_H, little-endian, left-justified
        static let fifoControl: UInt8 = 0x2E  // FIFO_CTRL_REG: mode in FM1:FM0 (bits 7:6)
        static let fifoSource: UInt8 = 0x2F  // FIFO_SRC_REG: WTM, OVRN_FIFO, EMPTY, FSS4:FSS0
        static let interrupt1Config: UInt8 = 0x30
        static let interrupt1Source: UInt8 = 0x31
        static let interrupt1Threshold: UInt8 = 0x32
        static let interrupt1Duration: UInt8 = 0x33
        /// Set in the sub-address for a multi-byte read that steps through registers.
        static let autoIncrement: UInt8 = 0x80
    }

    /// ODR codes 1…7: 1, 10, 25, 50, 100, 200, 400 Hz.
    static let rates = AccelerometerChip.lis3dh.lowPowerRates
    /// mg per digit of a 10-bit (normal mode) reading, per range; a 16-bit left-justified
    /// reading is that over 64, in every mode.
    static let sensitivity: [AccelerationRange: Int] = [.g2: 4, .g4: 8, .g8: 16, .g16: 48]
    /// INT1_THS step in mg, per range.
    static let thresholdStep: [AccelerationRange: Double] = [.g2: 16, .g4: 32, .g8: 62, .g16: 186]
    static let interruptActive: UInt8 = 0x40
    /// Levels in the FIFO. FSS counts up to 31 unread; OVRN_FIFO says all 32 are full and the
    /// oldest is being overwritten.
    package let fifoDepth = 32
    static let fifoEnable: UInt8 = 0x40
    static let latchInterrupt1: UInt8 = 0x08
    static let streamMode: UInt8 = 0x80
    static let overrun: UInt8 = 0x40

    /// A driver for the chip on `device`.
    package init(device: any RegisterDevice) {
        self.device = device
    }

    @discardableResult
    package func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        let index = nearestRateIndex(Self.rates, to: settings.outputRate)
        let scale: UInt8 = settings.range.code
        try write(Register.control4, 0x80 | scale << 4)  // block data update
        try write(Register.control1, UInt8(index + 1) << 4 | (settings.lowPower ? 0x08 : 0) | 0x07)
        range = settings.range
        outputRate = Self.rates[index]
        fifoEnabled = !settings.lowPower
        try write(Register.fifoControl, 0x00)  // bypass mode empties the FIFO
        try write(Register.control5, fifoEnabled ? Self.fifoEnable : 0x00)
        if fifoEnabled { try write(Register.fifoControl, Self.streamMode) }
        return outputRate
    }

    package func armMotionWake(_ wake: MotionWake) throws(AccelerometerError) {
        try write(Register.control3, 0x00)
        try write(Register.control2, 0x01)  // high-pass filter on interrupt generator 1
        _ = try read(Register.reference)  // sets the filter's reference to now
        try write(Register.interrupt1Threshold, steps(Double(wake.thresholdMilliG), of: Self.thresholdStep[range]!, in: 1...127))
        try write(Register.interrupt1Duration, steps(wake.duration.seconds * outputRate, of: 1, in: 0...127))
        try write(Register.interrupt1Config, 0x2A)  // OR of X, Y, Z high
        // Latch INT1 until INT1_SRC is read; the FIFO stays as configured.
        try write(Register.control5, Self.latchInterrupt1 | (fifoEnabled ? Self.fifoEnable : 0x00))
        _ = try read(Register.interrupt1Source)
        try write(Register.control3, Self.interruptActive)  // I1_IA1: generator 1 on INT1
    }

    package func disarm() throws(AccelerometerError) {
        try write(Register.control3, 0x00)
        try write(Register.interrupt1Config, 0x00)
    }

    package func readFIFO() throws(AccelerometerError) -> FIFORead {
        let source = try read(Register.fifoSource)
        let overflowed = source & Self.overrun != 0
        var samples: [AccelerationSample] = []
        for _ in 0..<(overflowed ? fifoDepth : Int(source & 0x1F)) {
            samples.append(sample(try readBlock(Register.output | Register.autoIncrement, count: 6)))
        }
        return FIFORead(samples: samples, overflowed: overflowed)
    }

    /// OUT_X_L … OUT_Z_H in milli-g at the configured range.
    private func sample(_ bytes: [UInt8]) -> AccelerationSample {
        let milliG = Self.sensitivity[range]!
        func axis(_ index: Int) -> Int {
            Int(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) * milliG / 64
        }
        return AccelerationSample(x: axis(0), y: axis(2), z: axis(4))
    }

    package func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try read(Register.interrupt1Source) & Self.interruptActive != 0
    }
}
