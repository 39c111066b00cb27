package import WaymarkClock

/// What a MEMS accelerometer on the device reports during a scenario, in mg: sensor noise,
/// gait, engine and road vibration, keystrokes, door slams, turbulence, and the pushes of
/// speeding up and braking (magnitudes in `docs/simulation.md`).
///
/// Samples are a pure function of the instant, the output data rate and the seed, taken on
/// a grid anchored at the timeline's origin. The chip's activity interrupt is answered
/// from the same samples, but only where the signal may reach the threshold: every other
/// stretch is skipped on its proven upper bound, so an 8-hour day costs a few samples per
/// event rather than millions.
package struct AccelerometerModel: Sendable {
    /// The truth the model shakes.
    package let trajectory: Trajectory
    private let vibrations: [PieceVibration]
    private let seed: UInt64

    /// Builds the model for a trajectory; `seed` draws gait, engines, slams, turbulence and noise.
    package init(trajectory: Trajectory, seed: UInt64) {
        self.trajectory = trajectory
        self.seed = seed
        var builder = VibrationBuilder(seed: seed)
        vibrations = trajectory.pieces.map { builder.vibration(of: $0) }
    }

    /// The samples a chip at `outputDataRate` Hz takes in `[start, end)`.
    package func samples(from start: Instant, to end: Instant, outputDataRate: Double) -> [AccelerometerReading] {
        let grid = SamplingGrid(outputDataRate: outputDataRate)
        guard start < end else { return [] }
        var piece = trajectory.pieceIndex(at: start)
        return grid.indices(in: start..<end).map { index in
            let instant = grid.instant(index)
            while piece + 1 < trajectory.pieces.count, trajectory.pieces[piece + 1].start <= instant { piece += 1 }
            let deviation = self.deviation(index: index, grid: grid, piece: piece)
            return AccelerometerReading(instant: instant, x: deviation.0, y: deviation.1, z: 1_000 + deviation.2)
        }
    }

    /// The first instant in `[start, limit)` at which the activity interrupt, armed at
    /// `start` with the device at rest as its reference, would fire; nil if it would not.
    package func nextActivity(from start: Instant, before limit: Instant, setting: ActivityInterruptSetting) -> Instant? {
        let grid = setting.grid
        let required = setting.requiredSamples
        var run: Int64 = 0
        var lastExamined = Int64.min
        var piece = trajectory.pieceIndex(at: start)
        var windowStart = start
        while windowStart < limit {
            let isLast = piece + 1 == trajectory.pieces.count
            let pieceEnd = isLast ? limit : trajectory.pieces[piece].end
            let windowEnd = min(pieceEnd, limit, windowStart + Self.window)
            let hot = vibrations[piece].hotIntervals(in: windowStart..<windowEnd, threshold: setting.threshold)
            for interval in hot {
                for index in grid.indices(in: interval) where index > lastExamined {
                    if index != lastExamined &+ 1 { run = 0 }
                    lastExamined = index
                    let deviation = self.deviation(index: index, grid: grid, piece: piece)
                    let largest = max(abs(deviation.0), abs(deviation.1), abs(deviation.2))
                    run = largest > setting.threshold ? run + 1 : 0
                    if run >= required { return grid.instant(index) }
                }
            }
            windowStart = windowEnd
            if windowEnd == pieceEnd && !isLast { piece += 1 }
        }
        return nil
    }

    /// How much of a piece is examined at a time (bounds the work before an early answer).
    private static let window = Duration.seconds(60)

    /// Deviation from rest of sample `index` on `grid`, inside piece `piece`.
    private func deviation(index: Int64, grid: SamplingGrid, piece: Int) -> (Double, Double, Double) {
        let instant = grid.instant(index)
        let salt = UInt64(grid.period) &* 4
        let noise = (
            SimulationRandom.bell(SimulationRandom.hash(seed: seed, stream: .accelerometerNoise, index: index, salt: salt)),
            SimulationRandom.bell(SimulationRandom.hash(seed: seed, stream: .accelerometerNoise, index: index, salt: salt + 1)),
            SimulationRandom.bell(SimulationRandom.hash(seed: seed, stream: .accelerometerNoise, index: index, salt: salt + 2))
        )
        let time = trajectory.pieces[piece].elapsed(instant)
        return vibrations[piece].deviation(at: instant, time: time, noise: noise)
    }
}
