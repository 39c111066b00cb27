package import WaymarkHardware

/// Analog Devices ADXL345 (data sheet Rev. G): activity interrupt, ac-coupled on all axes,
/// full resolution (3.9 mg/LSB at every range).
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
    }

    /// BW_RATE codes 0x06…0x0D: 6.25 Hz … 800 Hz (each code doubles the rate).
    static let rates: [Double] = (6...13).map { 3200 / Double(1 << (15 - $0)) }
    static let activityInterrupt: UInt8 = 0x10

    /// A driver for the chip on `device`.
    package init(device: any RegisterDevice) {
        self.device = device
    }

    @discardableResult
    package func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        let index = nearestIndex(Self.rates, to: settings.outputRate)
        try write(Register.power, 0x00)  // standby while configuring
        let rangeCode: UInt8 = settings.range.code
        try write(Register.dataFormat, 0x08 | rangeCode)  // FULL_RES, INT active high
        try write(Register.rate, (settings.lowPower ? 0x10 : 0x00) | UInt8(6 + index))
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

    package func readSample() throws(AccelerometerError) -> AccelerationSample {
        let bytes = try readBlock(Register.data, count: 6)
        func axis(_ index: Int) -> Int {
            Int(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) * 39 / 10
        }
        return AccelerationSample(x: axis(0), y: axis(2), z: axis(4))
    }

    package func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try read(Register.interruptSource) & Self.activityInterrupt != 0
    }
}
