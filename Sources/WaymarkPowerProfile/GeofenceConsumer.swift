package import WaymarkMonitoring
import WaymarkClock
import WaymarkEngine
import WaymarkLocation
import WaymarkSimulation

/// Who needs locations in a power run.
package enum PowerRunConsumer: Sendable {
    /// One live subscription held all day (the run's configuration).
    case liveUpdates
    /// Geofences only: a circle of `radius` metres around each place the scenario stays at
    /// (up to 20), evaluated on the fixes the monitors' ``EvaluationScheduler`` asks for.
    case geofences(radius: Double, travel: TravelMode)
}

/// The geofence-only consumer of a power run: a monitor over the scenario's places, fed the
/// engine's fixes, asking the engine for its next fix as the daemon's monitors do.
struct GeofenceConsumer {
    private var monitor: Monitor
    private let travel: TravelMode
    /// The run starts with a demand for a fix at once.
    private var plan = FixDemandPlan(demand: .zero)

    /// The consumer for `consumer`, or nil for live updates.
    init?(_ consumer: PowerRunConsumer, trajectory: Trajectory) {
        guard case .geofences(let radius, let travel) = consumer, var monitor = Monitor(name: "power-run") else { return nil }
        for (index, place) in trajectory.stayPlaces(separation: 3 * radius).prefix(Monitor.conditionLimit).enumerated() {
            guard let region = CircularRegion(latitude: place.latitude, longitude: place.longitude, radius: radius) else { continue }
            _ = try? monitor.add(.circularGeographic(region), identifier: "place \(index)", at: place.timestamp)
        }
        self.monitor = monitor
        self.travel = travel
    }

    /// Evaluates the engine's newest fix if it is new and returns the next demand when it
    /// changed: after a fix, the scheduler's instant; after a demand the engine dropped (no
    /// fix), the longest wait.
    mutating func observe(_ engine: Engine, at now: Instant, log: (String) -> Void) -> Instant?? {
        if let location = plan.newFix(engine.lastLocation) {
            for event in monitor.evaluate(location, accuracyLimited: false) { log("geofence \(event.identifier): \(event.state)") }
            let next = EvaluationScheduler.nextFix(
                after: location, at: now, watching: [monitor], travel: travel)
            return plan.change(to: next)
        }
        return plan.retryIfDropped(engineDemand: engine.fixDemand, at: now)
    }
}
