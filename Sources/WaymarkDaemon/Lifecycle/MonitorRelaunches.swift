import WaymarkAuthorization
import WaymarkSystem

/// The apps asked to start because a monitor event waits for them (docs/monitoring.md,
/// "Relaunch on an event"; the trigger is docs/semantics.md's "Relaunch"): an app that is not
/// connected and whose policy names a relaunch trigger is asked once, at its first stored
/// event since it was last connected; the request stands until the app connects or the start
/// timeout passes without it, and a later event asks again after a timeout. The events wait
/// in the store either way.
struct MonitorRelaunches {
    private var requested: [AppIdentity: (trigger: String, deadline: MonotonicInstant)] = [:]

    /// Whether `trigger` is asked for, for an app that has not come back.
    func isRequested(_ trigger: String) -> Bool { requested.values.contains { $0.trigger == trigger } }

    /// `trigger`, the first time an event of `app` asks for it since the app was connected or
    /// the last request timed out; the app then has until `now + startTimeout` to connect.
    mutating func request(_ trigger: String, of app: AppIdentity, now: MonotonicInstant, startTimeout: Duration) -> String? {
        guard requested[app] == nil else { return nil }
        requested[app] = (trigger, now + startTimeout)
        return trigger
    }

    /// `app` connected: the trigger asked for it, which has served.
    mutating func rejoined(_ app: AppIdentity) -> String? {
        requested.removeValue(forKey: app)?.trigger
    }

    /// When the next request times out, if one stands.
    var earliestDeadline: MonotonicInstant? { requested.values.map(\.deadline).min() }

    /// Forgets the requests whose apps did not connect by `now`; returns their triggers.
    mutating func expire(at now: MonotonicInstant) -> [String] {
        let expired = requested.filter { $0.value.deadline <= now }
        for app in expired.keys { requested[app] = nil }
        return expired.values.map(\.trigger)
    }
}
