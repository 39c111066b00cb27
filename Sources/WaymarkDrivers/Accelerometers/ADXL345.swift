package import WaymarkHardware

/// Analog Devices ADXL345 (data sheet Rev. G): activity interrupt, ac-coupled on all axes,
/// full resolution (3.9 mg/LSB at every range). Its output is filtered to half the output
/// rate by the chip itself (BW_RATE sets bandwidth and rate together: 50 Hz at 100 Hz), so no
/// filter is programmed. The 32-entry FIFO runs in stream mode while it measures in normal
/// mode; each 6-byte read of the data registers takes one entry out of it.
package final class ADXL345: RegisterAccess {
    package let chip = AccelerometerChip.adxl345
    package let device: any RegisterDevice

    enum Register {
        static let thresholdActivity: UInt8 = 0x24  // 62.5 mg/LSB
        static let activityControl: UInt8 = 0x27
        static let rate: UInt8 = 0x2C  // BW_RATE
        static let power: UInt8 = 0x2D  // POWER_CTL
        static let interruptEnable: UInt8 = 0x2E
        static let interruptMap: UInt8 = 0x2F
        static let interruptSource: UInt8 = 0x30
        static let dataFormat: UInt8 = 0x31
        static let data: UInt8 = 0x32  // DATAX0 … DATAZ1, little-endian
        static let fifoControl: UInt8 = 0x38  // FIFO_CTL: mode in D7:D6
        static let fifoStatus: UInt8 = 0x39  // FIFO_STATUS: entries in D5:D0
    }

    /// BW_RATE codes 0x06…0x0D: 6.25 Hz … 800 Hz (each code doubles the rate).
    static let rates = AccelerometerChip.adxl345.lowPowerRates
    static let activityInterrupt: UInt8 = 0x10
    /// Entries the FIFO holds; the data sheet's overrun is a full FIFO in stream mode (the
    /// next sample replaces the oldest).
    package let fifoDepth = 32
    static let streamMode: UInt8 = 0x80

    /// A driver for the chip on `device`.
    package init(device: any RegisterDevice) {
        self.device = device
    }

    @discardableResult
    package func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        let index = nearestRateIndex(Self.rates, to: settings.outputRate)
        try write(Register.power, 0x00)  // standby while configuring
        let rangeCode: UInt8 = settings.range.code
        try write(Register.dataFormat, 0x08 | rangeCode)  // FULL_RES, INT active high
        try write(Register.rate, (settings.lowPower ? 0x10 : 0x00) | UInt8(6 + index))
        try write(Register.fifoControl, settings.lowPower ? 0x00 : Self.streamMode)  // bypass empties it
        try write(Register.power, 0x08)  // measure
        return Self.rates[index]
    }

    package func armMotionWake(_ wake: MotionWake) throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
        try write(Register.thresholdActivity, steps(Double(wake.thresholdMilliG), of: 62.5, in: 1...255))
        try write(Register.activityControl, 0xF0)  // ac-coupled activity on X, Y, Z
        try write(Register.interruptMap, 0x00)  // every interrupt to INT1
        _ = try read(Register.interruptSource)  // clear a stale one
        try write(Register.interruptEnable, Self.activityInterrupt)
    }

    package func disarm() throws(AccelerometerError) {
        try write(Register.interruptEnable, 0x00)
        try write(Register.activityControl, 0x00)
    }

    package func readFIFO() throws(AccelerometerError) -> FIFORead {
        let entries = Int(try read(Register.fifoStatus) & 0x3F)
        var samples: [AccelerationSample] = []
        for _ in 0..<min(entries, fifoDepth) {
            samples.append(Self.sample(try readBlock(Register.data, count: 6)))
        }
        return FIFORead(samples: samples, overflowed: entries >= fifoDepth)
    }

    /// DATAX0 … DATAZ1 in milli-g.
    private static func sample(_ bytes: [UInt8]) -> AccelerationSample {
        func axis(_ index: Int) -> Int {
            Int(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) * 39 / 10
        }
        return AccelerationSample(x: axis(0), y: axis(2), z: axis(4))
    }

    package func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try read(Register.interruptSource) & Self.activityInterrupt != 0
    }
}
