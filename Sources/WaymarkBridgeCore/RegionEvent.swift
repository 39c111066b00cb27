package import WaymarkLocation

/// A monitor event of one of the bridge's regions, as the bridge keeps it until its outbox
/// commits the transition it makes (if any): the daemon's `monitorEvent` and the fix that
/// decided it, when the bridge received that fix.
package struct RegionEvent: Hashable, Sendable {
    /// The condition's state, as far as a transition cares.
    package enum State: String, Hashable, Sendable {
        /// Inside the region (`satisfied`).
        case inside
        /// Outside the region (`unsatisfied`).
        case outside
        /// Not decided: `unknown`, or `unmonitored` with a diagnostic (`accuracyLimited`, …).
        case undecided
    }

    /// The region's name (the condition's identifier).
    package var region: String
    /// The state reached.
    package var state: State
    /// When: the deciding fix's time.
    package var date: Timestamp
    /// The deciding fix, when the bridge received it (it subscribes to every fix).
    package var fix: Location?
    /// The daemon's sequence to acknowledge, absent when the daemon could not keep the event.
    package var sequence: UInt64?

    /// An event.
    package init(region: String, state: State, date: Timestamp, fix: Location?, sequence: UInt64?) {
        self.region = region
        self.state = state
        self.date = date
        self.fix = fix
        self.sequence = sequence
    }

    /// The OwnTracks transition this event makes after `previous` (the region's last
    /// published state, `nil` before any): `enter` when it is inside and was not, `leave` when
    /// it is outside and was inside. Nothing else is a crossing: an undecided state, the first
    /// `outside` of a region the device was never in (the state assumed when it was added),
    /// or the same state again.
    package func transition(after previous: State?) -> OwnTracksPayload.Transition? {
        switch (previous, state) {
        case (.inside, .inside), (_, .undecided): nil
        case (_, .inside): .enter
        case (.inside, .outside): .leave
        case (_, .outside): nil
        }
    }

    /// The state the region has after this event: an undecided event keeps the last decided one.
    package func state(after previous: State?) -> State? {
        state == .undecided ? previous : state
    }
}
