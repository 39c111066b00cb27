import WaymarkClock
import WaymarkLocation

/// What happened during a run, as the subscriber and an observer saw it.
struct RunRecorder: Sendable {
    /// One delivered update.
    struct Delivery: Sendable {
        let instant: Instant
        let hasLocation: Bool
        let isStationary: Bool
        let locationUnavailable: Bool
    }

    private(set) var deliveries: [Delivery] = []
    private(set) var log: [PowerRunReport.LogEntry] = []
    /// How long the accelerometer measured in normal mode (the windows the engine asked for),
    /// rather than waiting for its wake in low power.
    private(set) var accelerometerSampling = Duration.zero
    /// Windows of samples handed to the engine: on a board, the daemon's reads of the chip's FIFO.
    private(set) var accelerometerReads = 0

    mutating func delivered(_ update: LocationUpdate, at instant: Instant) {
        deliveries.append(
            Delivery(
                instant: instant, hasLocation: update.location != nil, isStationary: update.isStationary,
                locationUnavailable: update.diagnostics.locationUnavailable))
        if update.isStationary {
            log(instant, "update: isStationary true\(update.location == nil ? " (no location)" : "")")
        } else if update.location == nil {
            log(instant, "update: no location (\(update.diagnostics.names.joined(separator: ", ")))")
        } else if let previous = deliveries.dropLast().last, previous.isStationary || !previous.hasLocation {
            log(instant, "update: isStationary false (resumed)")
        }
    }

    mutating func sampled(from start: Instant, to end: Instant) {
        accelerometerSampling += end - start
    }

    mutating func readAccelerometer() {
        accelerometerReads += 1
    }

    mutating func log(_ instant: Instant, _ text: String) {
        log.append(PowerRunReport.LogEntry(instant: instant, event: text))
    }

    /// Instants of the updates that carried a location and were not the pausing one.
    var movingFixInstants: [Instant] {
        deliveries.filter { $0.hasLocation && !$0.isStationary }.map(\.instant)
    }
}
