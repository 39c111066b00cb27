import WaymarkJSON
package import WaymarkLocation

/// A circular region (`CLMonitor.CircularGeographicCondition`).
package struct CircularGeographicCondition: Hashable, Sendable {
    /// The centre's latitude, degrees.
    package var latitude: Double
    /// The centre's longitude, degrees.
    package var longitude: Double
    /// The radius, metres.
    package var radius: Double

    /// Creates a condition.
    package init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// Writes the `condition` object.
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("type", "circularGeographic")
        buffer.key("center")
        buffer.beginObject()
        buffer.member("latitude", number: latitude)
        buffer.member("longitude", number: longitude)
        buffer.endObject()
        buffer.member("radius", number: radius)
        buffer.endObject()
    }

    init(_ fields: Fields) throws(ProtocolError) {
        guard try fields.string("type") == "circularGeographic" else {
            throw fields.invalid("type", "the only condition type is \"circularGeographic\"")
        }
        let center = try fields.fields("center")
        self.init(latitude: try center.double("latitude"), longitude: try center.double("longitude"), radius: try fields.double("radius"))
    }
}

/// The state of a monitored condition (`CLMonitor.Event.State`).
package enum MonitorState: String, Hashable, Sendable, CaseIterable, ProtocolNamed {
    /// Not known yet.
    case unknown
    /// Inside the region.
    case satisfied
    /// Outside the region.
    case unsatisfied
    /// Not watched; the event's diagnostics say why (`conditionLimitExceeded`, `conditionUnsupported`).
    case unmonitored
}

/// The parameters of `addCondition` (protocol version 3).
package struct ConditionRequest: Hashable, Sendable {
    /// The open monitor.
    package var monitor: UInt64
    /// The condition's identifier, unique in the monitor.
    package var identifier: String
    /// The condition.
    package var condition: CircularGeographicCondition
    /// The state to assume until one is known (`assuming:`).
    package var assuming: MonitorState?

    /// Creates a request.
    package init(monitor: UInt64, identifier: String, condition: CircularGeographicCondition, assuming: MonitorState? = nil) {
        self.monitor = monitor
        self.identifier = identifier
        self.condition = condition
        self.assuming = assuming
    }
}

/// A monitor's event (`CLMonitor.Event`): a condition's state changed, or a diagnostic arose.
package struct MonitorEvent: Hashable, Sendable {
    /// The condition's identifier.
    package var identifier: String
    /// Its state.
    package var state: MonitorState
    /// When the state was reached.
    package var date: Timestamp
    /// Diagnostic names such as `accuracyLimited`, `conditionLimitExceeded`, `persistenceUnavailable`.
    package var diagnostics: [String]

    /// Creates an event.
    package init(identifier: String, state: MonitorState, date: Timestamp, diagnostics: [String] = []) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.diagnostics = diagnostics
    }

    /// Writes the event's members (of a `monitorEvent` event or a record's `lastEvent`).
    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("identifier", text: identifier)
        buffer.member("state", text: state.rawValue)
        buffer.key("date")
        buffer.string(unescaped: date.appendProtocolText)
        buffer.member("diagnostics", strings: diagnostics)
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(
            identifier: try fields.string("identifier"), state: try fields.named("state", as: MonitorState.self),
            date: try fields.timestamp("date"), diagnostics: try fields.strings("diagnostics"))
    }
}

/// The answer to `monitorRecord` (`CLMonitor.Record`): a condition and its last event.
package struct MonitorRecord: Hashable, Sendable {
    /// The condition.
    package var condition: CircularGeographicCondition
    /// Its last event.
    package var lastEvent: MonitorEvent

    /// Creates a record.
    package init(condition: CircularGeographicCondition, lastEvent: MonitorEvent) {
        self.condition = condition
        self.lastEvent = lastEvent
    }

    /// Writes the `record` object.
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.key("condition")
        condition.write(to: &buffer)
        buffer.key("lastEvent")
        buffer.beginObject()
        lastEvent.writeMembers(to: &buffer)
        buffer.endObject()
        buffer.endObject()
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(condition: try CircularGeographicCondition(fields.fields("condition")), lastEvent: try MonitorEvent(fields.fields("lastEvent")))
    }
}

/// A stay in the visit diary on the wire (`CLVisit`): where (the place's centre and
/// accuracy), when the device arrived and when it left (null while it is there).
extension Visit {
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("latitude", number: latitude)
        buffer.member("longitude", number: longitude)
        buffer.member("horizontalAccuracy", number: horizontalAccuracy)
        buffer.key("arrivalDate")
        buffer.string(unescaped: arrivalDate.appendProtocolText)
        buffer.key("departureDate")
        if let departureDate { buffer.string(unescaped: departureDate.appendProtocolText) } else { buffer.null() }
        buffer.endObject()
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(
            latitude: try fields.double("latitude"), longitude: try fields.double("longitude"),
            horizontalAccuracy: try fields.double("horizontalAccuracy"), arrivalDate: try fields.timestamp("arrivalDate"),
            departureDate: try fields.optionalString("departureDate") == nil ? nil : try fields.timestamp("departureDate"))
    }
}
