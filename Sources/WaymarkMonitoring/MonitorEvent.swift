package import WaymarkLocation

/// A condition's state (`CLMonitor.Event.State`).
package enum ConditionState: String, Hashable, Sendable, CaseIterable {
    /// Not known yet.
    case unknown
    /// Inside the region.
    case satisfied
    /// Outside the region.
    case unsatisfied
    /// Not watched: a diagnostic says why.
    case unmonitored
}

/// Why a condition's events are held back (`CLMonitor.Event`'s diagnostic properties).
package enum MonitorDiagnostic: String, Hashable, Sendable, CaseIterable {
    /// Only approximate location is authorized: the condition is not evaluated.
    case accuracyLimited
    /// The monitor already watches ``Monitor/conditionLimit`` conditions.
    case conditionLimitExceeded
    /// The kind of condition is not supported (beacons).
    case conditionUnsupported
    /// The store could not keep the condition (set by the daemon).
    case persistenceUnavailable
}

/// A monitor's event (`CLMonitor.Event`).
package struct MonitorEvent: Hashable, Sendable {
    /// The condition's identifier.
    package var identifier: String
    /// The state reached.
    package var state: ConditionState
    /// When: the deciding fix's time, or the time the condition was added.
    package var date: Timestamp
    /// The diagnostics in force, in declaration order.
    package var diagnostics: [MonitorDiagnostic]

    package init(identifier: String, state: ConditionState, date: Timestamp, diagnostics: [MonitorDiagnostic] = []) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.diagnostics = diagnostics
    }
}
