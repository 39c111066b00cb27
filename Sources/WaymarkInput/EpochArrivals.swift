import WaymarkClock
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA
import WaymarkSystem
import WaymarkTime

/// When each epoch's first sentence arrived, for the time service: an epoch's fix is complete
/// only at its last sentence (or at the next epoch's first), but a PPS edge pairs with the
/// epoch by the arrival of its first one. Each chunk of bytes is read with both clocks; the
/// epoch in progress after a chunk is decoded began in that chunk unless it was already in
/// progress, and an epoch that begins and ends in one chunk arrived with it.
struct EpochArrivals {
    private var started: (time: TimeOfDay, read: ClockReading)?

    /// The time of `fix`, completed while decoding the chunk read at `read`; `nil` without a
    /// date and time.
    func epochTime(of fix: Fix, chunkRead read: ClockReading) -> EpochTime? {
        guard let utc = fix.time?.nanosecondsSinceEpoch else { return nil }
        let arrival = started.flatMap { $0.time == fix.timeOfDay ? $0.read : nil } ?? read
        return EpochTime(
            utcNanoseconds: utc, firstSentenceAt: arrival.monotonic, clocks: arrival, hasFix: fix.mode >= .twoDimensional)
    }

    /// Notes the epoch in progress (by its time of day) once the chunk read at `read` is decoded.
    mutating func decoded(chunkRead read: ClockReading, inProgress: TimeOfDay?) {
        guard let inProgress, started?.time != inProgress else { return }
        started = (inProgress, read)
    }
}

extension ClockReading {
    /// `CLOCK_MONOTONIC` and `CLOCK_REALTIME`, read now, back to back.
    static var now: ClockReading {
        ClockReading(
            monotonic: Instant(nanoseconds: MonotonicInstant.now.nanoseconds),
            realtimeNanoseconds: RealtimeInstant.now.nanosecondsSinceEpoch)
    }
}
