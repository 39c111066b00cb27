/// What a condition watches. Only circles are evaluated; other kinds are kept as records
/// with the state `unmonitored` and the diagnostic `conditionUnsupported`, as Core Location does
/// for a condition it cannot watch.
package enum MonitoredCondition: Hashable, Sendable {
    /// `CircularGeographicCondition`.
    case circularGeographic(CircularRegion)
    /// `BeaconIdentityCondition`: Waymark has no Bluetooth beacon ranging.
    case beaconIdentity
}

/// A condition under its identifier with its last event: the value the daemon stores per
/// condition, and from which ``Monitor`` is rebuilt after a restart.
package struct ConditionRecord: Hashable, Sendable {
    /// The identifier, unique in its monitor.
    package var identifier: String
    /// The condition.
    package var condition: MonitoredCondition
    /// The state assumed when the condition was added (`assuming:`), if any.
    package var assumedState: ConditionState?
    /// The last event, delivered or not; its state is the condition's current state.
    package var lastEvent: MonitorEvent

    package init(identifier: String, condition: MonitoredCondition, assumedState: ConditionState?, lastEvent: MonitorEvent) {
        self.identifier = identifier
        self.condition = condition
        self.assumedState = assumedState
        self.lastEvent = lastEvent
    }
}
