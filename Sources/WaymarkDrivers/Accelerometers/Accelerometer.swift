package import WaymarkHardware
import WaymarkSystem

/// A motion sensor on a register bus: identity check, measurement setup, the chip's own
/// motion-wake interrupt on its INT pin, samples in milli-g. The drivers only program the
/// chip; what the samples and interrupts mean is WaymarkMotion's business.
package protocol Accelerometer: AnyObject {
    /// Which chip this driver speaks to.
    var chip: AccelerometerChip { get }
    /// The register bus.
    var device: any RegisterDevice { get }
    /// Reads the identity register; throws ``AccelerometerError/identityMismatch`` if another
    /// chip (or nothing) answers.
    func probe() throws(AccelerometerError)
    /// Sets range, output rate (the nearest the chip offers) and low-power mode, and starts
    /// measuring. In normal mode the chip's FIFO collects every sample in stream mode (the
    /// oldest is dropped when it is full) for ``readFIFO()``, behind a low-pass filter at half
    /// the output rate at most; in low-power mode the FIFO is off. Returns the output rate
    /// applied, in hertz.
    @discardableResult
    func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double
    /// Programs the activity (motion-wake) interrupt and routes it to the INT1 pin, active high.
    func armMotionWake(_ wake: MotionWake) throws(AccelerometerError)
    /// Turns the motion interrupt off.
    func disarm() throws(AccelerometerError)
    /// How many samples the FIFO holds.
    var fifoDepth: Int { get }
    /// Reads every sample the FIFO holds, oldest first: never more than ``fifoDepth``,
    /// whatever count the chip reports.
    func readFIFO() throws(AccelerometerError) -> FIFORead
    /// Reads and clears the interrupt source; `true` if motion raised it.
    func acknowledgeInterrupt() throws(AccelerometerError) -> Bool
}

/// Full-scale range.
package enum AccelerationRange: Int, Hashable, Sendable, CaseIterable {
    /// ±2 g.
    case g2 = 2
    /// ±4 g.
    case g4 = 4
    /// ±8 g.
    case g8 = 8
    /// ±16 g.
    case g16 = 16

    /// The 2-bit code every supported chip uses for it: 0 for ±2 g … 3 for ±16 g.
    var code: UInt8 { UInt8(rawValue.trailingZeroBitCount - 1) }
}

/// Measurement setup.
package struct AccelerometerSettings: Hashable, Sendable {
    /// Full-scale range.
    package var range: AccelerationRange
    /// Wanted output data rate in hertz; the chip's nearest rate is used.
    package var outputRate: Double
    /// The chip's low-power mode (more noise, a fraction of the current).
    package var lowPower: Bool

    /// Creates settings; the default suits motion wake: ±2 g, 10 Hz, low power.
    package init(range: AccelerationRange = .g2, outputRate: Double = 10, lowPower: Bool = true) {
        self.range = range
        self.outputRate = outputRate
        self.lowPower = lowPower
    }
}

/// The motion-wake interrupt: acceleration change above a threshold for a duration.
package struct MotionWake: Hashable, Sendable {
    /// The threshold in milli-g (rounded up to the chip's step).
    package var thresholdMilliG: Int
    /// How long the threshold must be exceeded. The ADXL345 has no activity timer and
    /// fires on the first sample above; the others count samples or milliseconds.
    package var duration: Duration

    /// Creates a motion-wake setting.
    package init(thresholdMilliG: Int, duration: Duration) {
        self.thresholdMilliG = thresholdMilliG
        self.duration = duration
    }
}

/// One sample: acceleration on each axis in milli-g.
package struct AccelerationSample: Hashable, Sendable {
    /// X axis, mg.
    package var x: Int
    /// Y axis, mg.
    package var y: Int
    /// Z axis, mg.
    package var z: Int

    /// Creates a sample.
    package init(x: Int, y: Int, z: Int) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// What one read of an accelerometer's FIFO found.
package struct FIFORead: Hashable, Sendable {
    /// The samples, oldest first.
    package var samples: [AccelerationSample]
    /// The FIFO had filled since the last read, so older samples were lost (the reader was
    /// held up); `samples` is what was left.
    package var overflowed: Bool

    /// Creates a result.
    package init(samples: [AccelerationSample], overflowed: Bool) {
        self.samples = samples
        self.overflowed = overflowed
    }
}

/// Opens the driver for `chip` on `device`.
package func makeAccelerometer(_ chip: AccelerometerChip, on device: any RegisterDevice) -> any Accelerometer {
    switch chip {
    case .adxl345: ADXL345(device: device)
    case .lis3dh: LIS3DH(device: device)
    case .mpu6050: MPU6050(device: device)
    }
}
