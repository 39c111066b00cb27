package import WaymarkLocation

/// One app's named monitor (`CLMonitor`): its conditions under their identifiers, each with
/// its last event, evaluated against fixes. Pure: every date comes from the caller.
///
/// Rules (docs/monitoring.md): at most ``conditionLimit`` conditions are watched; more are
/// kept `unmonitored` with `conditionLimitExceeded`, up to ``recordLimit`` records in all.
/// A circle is `satisfied` once the fix's whole accuracy circle is inside it and `unsatisfied`
/// once wholly outside; in between the state holds, so a fix on the border never flaps.
package struct Monitor: Sendable {
    /// Conditions watched per monitor, as Core Location's 20 per app.
    package static let conditionLimit = 20
    /// Records kept per monitor, watched or not: beyond, ``add(_:identifier:assuming:at:)``
    /// refuses.
    package static let recordLimit = 100
    /// The longest identifier (and monitor name), UTF-8 bytes.
    package static let maximumIdentifierLength = 128

    /// Why a condition was refused.
    package enum Refusal: Error, Hashable, Sendable {
        /// The identifier is empty, longer than ``maximumIdentifierLength`` bytes or holds a
        /// control character (``isValidIdentifier(_:)``).
        case invalidIdentifier
        /// The monitor already holds ``recordLimit`` records.
        case recordLimitReached
    }

    /// The monitor's name.
    package let name: String
    /// The records in the order their conditions were first added (the order of events).
    package private(set) var records: [ConditionRecord] = []

    /// An empty monitor, or `nil` for a name that is not a valid identifier.
    package init?(name: String) {
        guard Self.isValidIdentifier(name) else { return nil }
        self.name = name
    }

    /// A monitor rebuilt from stored records (untrusted: each is re-added through the same
    /// rules, keeping its last event; invalid or excess records are left out).
    /// `watchedElsewhere` counts the conditions the app's monitors restored before this one
    /// watch: the limit of ``conditionLimit`` is the app's on restore too.
    package init?(name: String, restoring stored: [ConditionRecord], watchedElsewhere: Int = 0) {
        self.init(name: name)
        for record in stored where Self.isValidIdentifier(record.identifier) && records.count < Self.recordLimit {
            if let index = index(of: record.identifier) { records.remove(at: index) }
            var restored = record
            restored.lastEvent.identifier = record.identifier
            if restored.assumedState == .unmonitored { restored.assumedState = nil }
            if restored.lastEvent.state != .unmonitored,
                let diagnostic = admissionDiagnostic(for: record.condition, watchedElsewhere: watchedElsewhere)
            {
                restored.lastEvent = MonitorEvent(
                    identifier: record.identifier, state: .unmonitored, date: record.lastEvent.date, diagnostics: [diagnostic])
            }
            records.append(restored)
        }
    }

    /// The identifiers, in the order their conditions were added.
    package var identifiers: [String] { records.map(\.identifier) }

    /// The record for `identifier`, if any.
    package func record(for identifier: String) -> ConditionRecord? {
        index(of: identifier).map { records[$0] }
    }

    /// Adds `condition` under `identifier` (replacing a condition of the same identifier, whose
    /// state starts over). Its state starts as `assuming`, or `unknown`. Returns the event to
    /// deliver at once: a condition that is not watched gets one with `unmonitored` and the
    /// diagnostic saying why; a watched one gets none until a fix decides its state.
    /// `watchedElsewhere` counts the conditions the same app watches in its other monitors:
    /// the limit of ``conditionLimit`` is the app's, as in Core Location.
    package mutating func add(
        _ condition: MonitoredCondition, identifier: String, assuming: ConditionState? = nil, watchedElsewhere: Int = 0,
        at date: Timestamp
    ) throws(Refusal) -> MonitorEvent? {
        guard Self.isValidIdentifier(identifier) else { throw .invalidIdentifier }
        let existing = index(of: identifier)
        if existing == nil, records.count >= Self.recordLimit { throw .recordLimitReached }
        if let existing { records.remove(at: existing) }
        let assumed = assuming == .unmonitored ? nil : assuming
        let diagnostic = admissionDiagnostic(for: condition, watchedElsewhere: watchedElsewhere)
        let event = MonitorEvent(
            identifier: identifier, state: diagnostic == nil ? assumed ?? .unknown : .unmonitored, date: date,
            diagnostics: diagnostic.map { [$0] } ?? [])
        let record = ConditionRecord(identifier: identifier, condition: condition, assumedState: assumed, lastEvent: event)
        if let existing { records.insert(record, at: existing) } else { records.append(record) }
        return diagnostic == nil ? nil : event
    }

    /// Marks the last event of the condition under `identifier` `persistenceUnavailable`: the
    /// store could not keep it, so it lasts only until the daemon stops.
    package mutating func markUnkept(_ identifier: String) {
        guard let index = index(of: identifier), !records[index].lastEvent.diagnostics.contains(.persistenceUnavailable) else { return }
        records[index].lastEvent.diagnostics.append(.persistenceUnavailable)
    }

    /// Removes the condition under `identifier`; `false` if there was none. A condition kept
    /// `unmonitored` for the limit stays so: the app removes and adds it again.
    @discardableResult
    package mutating func remove(identifier: String) -> Bool {
        guard let index = index(of: identifier) else { return false }
        records.remove(at: index)
        return true
    }

    /// Evaluates every watched circle against `location` and returns the events, in the
    /// order of the records: one per condition whose state or diagnostics changed.
    ///
    /// Under reduced accuracy (`accuracyLimited`) nothing is decided: each watched condition
    /// gets one event with its state unchanged and the diagnostic `accuracyLimited`, and one
    /// more without it when full accuracy returns. A fix older than a condition's last event
    /// is ignored for it, so events never go back in time.
    package mutating func evaluate(_ location: Location, accuracyLimited: Bool) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for index in records.indices {
            guard case .circularGeographic(let region) = records[index].condition,
                records[index].lastEvent.state != .unmonitored, location.timestamp >= records[index].lastEvent.date
            else { continue }
            let last = records[index].lastEvent
            let state = accuracyLimited ? last.state : Self.state(of: region, at: location) ?? last.state
            let diagnostics: [MonitorDiagnostic] = accuracyLimited ? [.accuracyLimited] : []
            guard state != last.state || diagnostics != last.diagnostics else { continue }
            let event = MonitorEvent(identifier: last.identifier, state: state, date: location.timestamp, diagnostics: diagnostics)
            records[index].lastEvent = event
            events.append(event)
        }
        return events
    }

    /// The state `location` proves for `region`, or `nil` when its accuracy circle straddles
    /// the border or its accuracy cannot decide.
    static func state(of region: CircularRegion, at location: Location) -> ConditionState? {
        guard let accuracy = Accuracy.decisive(location) else { return nil }
        let fromBorder = region.signedDistanceToBorder(of: location)
        if fromBorder + accuracy <= 0 { return .satisfied }
        if fromBorder - accuracy > 0 { return .unsatisfied }
        return nil
    }

    /// The diagnostic that keeps `condition` from being watched if it were added now.
    private func admissionDiagnostic(for condition: MonitoredCondition, watchedElsewhere: Int = 0) -> MonitorDiagnostic? {
        guard case .circularGeographic = condition else { return .conditionUnsupported }
        let (watched, overflow) = watchedCount.addingReportingOverflow(max(0, watchedElsewhere))
        return overflow || watched >= Self.conditionLimit ? .conditionLimitExceeded : nil
    }

    /// The conditions this monitor watches (not `unmonitored`).
    package var watchedCount: Int {
        records.count(where: { $0.lastEvent.state != .unmonitored })
    }

    private func index(of identifier: String) -> Int? {
        records.firstIndex { $0.identifier == identifier }
    }

    /// Whether `identifier` can name a monitor or a condition: 1 … ``maximumIdentifierLength``
    /// bytes and no C0 control character (JSON writes each in six bytes, so that a monitor's
    /// identifiers would not fit the protocol's line, and a terminal would obey them).
    package static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.utf8.count <= maximumIdentifierLength && !identifier.utf8.contains { $0 < 0x20 }
    }
}
