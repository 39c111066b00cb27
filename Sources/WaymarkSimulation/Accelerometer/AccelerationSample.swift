package import WaymarkClock

/// One accelerometer reading in milli-g, in the device's frame: x along the direction of
/// travel, y to the left, z up (a device lying flat reads about +1000 mg on z).
package struct AccelerometerReading: Hashable, Sendable {
    /// When the chip took the sample.
    package var instant: Instant
    /// Acceleration along x, mg.
    package var x: Double
    /// Acceleration along y, mg.
    package var y: Double
    /// Acceleration along z, mg.
    package var z: Double

    /// Creates a sample.
    package init(instant: Instant, x: Double, y: Double, z: Double) {
        self.instant = instant
        self.x = x
        self.y = y
        self.z = z
    }
}

/// The chip's own motion-wake (activity) interrupt, AC-coupled as on the ADXL345 and LIS3DH:
/// it fires once the deviation from the resting level exceeds `threshold` on any axis for
/// `minimumDuration` (consecutive samples at the output data rate).
package struct ActivityInterruptSetting: Hashable, Sendable {
    /// Activity threshold, mg.
    package var threshold: Double
    /// How long the threshold must be exceeded; zero fires on a single sample (ADXL345).
    package var minimumDuration: Duration
    /// The chip's output data rate, Hz.
    package var outputDataRate: Double

    /// Creates a setting.
    package init(threshold: Double, minimumDuration: Duration, outputDataRate: Double) {
        self.threshold = threshold
        self.minimumDuration = minimumDuration
        self.outputDataRate = outputDataRate
    }

    /// An interrupt that fires on a single sample above `threshold`, as the ADXL345's does.
    package static func singleSample(threshold: Double, outputDataRate: Double) -> ActivityInterruptSetting {
        ActivityInterruptSetting(threshold: threshold, minimumDuration: .zero, outputDataRate: outputDataRate)
    }

    /// The sampling grid of the output data rate.
    var grid: SamplingGrid { SamplingGrid(outputDataRate: outputDataRate) }

    /// How many consecutive samples above the threshold fire the interrupt.
    var requiredSamples: Int64 {
        let period = grid.period
        return max(1, (minimumDuration.nanoseconds + period - 1) / period)
    }
}

/// The instants at which a chip running at an output data rate takes its samples: every
/// period from the timeline's origin, so that two readers at the same rate see the same
/// samples.
struct SamplingGrid: Hashable, Sendable {
    /// Nanoseconds between samples.
    let period: Int64

    init(outputDataRate: Double) {
        precondition(outputDataRate > 0 && outputDataRate <= 10_000, "output data rate out of range")
        period = Int64((1e9 / outputDataRate).rounded())
    }

    /// Indices of the samples taken in `range`.
    func indices(in range: Range<Instant>) -> Range<Int64> {
        first(atOrAfter: range.lowerBound)..<first(atOrAfter: range.upperBound)
    }

    /// The instant of sample `index`.
    func instant(_ index: Int64) -> Instant { Instant(nanoseconds: index * period) }

    private func first(atOrAfter instant: Instant) -> Int64 {
        let value = instant.nanoseconds
        return value >= 0 ? (value + period - 1) / period : value / period
    }
}
