package import WaymarkClock
package import WaymarkLocation

/// The monitors' side of the engine's fix demand (`EngineEvent.fixNeeded`): which fix is new
/// to them, and the demand last asked for, so that the engine hears only changes. The daemon's
/// agent and the power run's geofence consumer use it alike.
package struct FixDemandPlan: Sendable {
    /// The last fix the monitors evaluated.
    package private(set) var lastEvaluated: Location?
    /// The instant last asked for (nil: none).
    package private(set) var demand: Instant?

    /// A plan that has asked for `demand` already.
    package init(demand: Instant? = nil) {
        self.demand = demand
    }

    /// `location` when the monitors have not evaluated it yet (it is then theirs), else nil.
    package mutating func newFix(_ location: Location?) -> Location? {
        guard let location, location != lastEvaluated else { return nil }
        lastEvaluated = location
        return location
    }

    /// The demand to send when it differs from the last one asked for: `.some(next)`; nil when
    /// nothing changes.
    package mutating func change(to next: Instant?) -> Instant?? {
        guard next != demand else { return nil }
        demand = next
        return .some(next)
    }

    /// After the engine dropped a due demand that found no fix (indoors: its acquisition
    /// timeout), the monitors ask again after ``EvaluationScheduler/maximumWait``.
    package mutating func retryIfDropped(engineDemand: Instant?, at now: Instant) -> Instant?? {
        guard engineDemand == nil, let last = demand, last <= now else { return nil }
        return change(to: now + EvaluationScheduler.maximumWait)
    }
}
