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
        let center = try fields.fields("center")
        self.init(latitude: try center.double("latitude"), longitude: try center.double("longitude"), radius: try fields.double("radius"))
    }
}

/// A Bluetooth beacon's identity (`CLMonitor.BeaconIdentityCondition`): its UUID, and
/// optionally its major value and then its minor value. Waymark has no Bluetooth ranging: the
/// daemon keeps such a condition `unmonitored` with `conditionUnsupported`, as Core Location
/// does for a condition it cannot watch.
package struct BeaconIdentityCondition: Hashable, Sendable {
    /// The UUID in its canonical form, upper case (`E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`).
    package var uuid: String
    /// The major value, if the condition names one.
    package var major: UInt16?
    /// The minor value, if the condition names one (only with a major value).
    package var minor: UInt16?

    /// The condition of the beacons with `uuid` (any case), and `major` and `minor` when
    /// given; nil when `uuid` is not a UUID's canonical text or `minor` comes without `major`.
    package init?(uuid: String, major: UInt16? = nil, minor: UInt16? = nil) {
        guard minor == nil || major != nil, let canonical = Self.canonical(uuid) else { return nil }
        self.uuid = canonical
        self.major = major
        self.minor = minor
    }

    /// `text` upper-cased if it is 8-4-4-4-12 hexadecimal digits, else nil.
    static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return nil }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
                else { return nil }
            }
        }
        return text.uppercased()
    }

    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("uuid", text: uuid)
        if let major { buffer.member("major", Int(major)) }
        if let minor { buffer.member("minor", Int(minor)) }
    }

    init(_ fields: Fields) throws(ProtocolError) {
        let major = try Self.value(fields, "major")
        guard let condition = Self(uuid: try fields.string("uuid"), major: major, minor: try Self.value(fields, "minor")) else {
            throw fields.invalid("uuid", "a beacon is a UUID (8-4-4-4-12 hexadecimal digits), then optionally a major and then a minor value")
        }
        self = condition
    }

    private static func value(_ fields: Fields, _ key: String) throws(ProtocolError) -> UInt16? {
        guard let value = try fields.optionalInteger(key) else { return nil }
        guard let exact = UInt16(exactly: value) else { throw fields.invalid(key, "a beacon's \(key) value is 0 … 65535") }
        return exact
    }
}

/// What a condition watches (`CLMonitor`'s conditions), as `addCondition` and a record carry
/// it: a `type` and that type's members.
package enum Condition: Hashable, Sendable {
    /// `circularGeographic`: the one kind Waymark evaluates.
    case circularGeographic(CircularGeographicCondition)
    /// `beaconIdentity`: kept `unmonitored` with `conditionUnsupported`. In a record the
    /// identity is nil: the daemon keeps only the kind of a condition it cannot watch.
    case beaconIdentity(BeaconIdentityCondition?)
    /// A type this side does not know (a newer peer's), as sent: the daemon answers it with an
    /// `unmonitored` event with `conditionUnsupported` and does not keep it.
    case unsupported(type: String)

    /// Writes the `condition` object.
    func write(to buffer: inout JSONBuffer) {
        switch self {
        case .circularGeographic(let circle): circle.write(to: &buffer)
        case .beaconIdentity(let beacon):
            buffer.beginObject()
            buffer.member("type", "beaconIdentity")
            beacon?.writeMembers(to: &buffer)
            buffer.endObject()
        case .unsupported(let type):
            buffer.beginObject()
            buffer.member("type", text: type)
            buffer.endObject()
        }
    }

    /// Reads a `condition` object; a beacon's identity is required unless `inRecord`.
    init(_ fields: Fields, inRecord: Bool) throws(ProtocolError) {
        switch try fields.string("type") {
        case "circularGeographic": self = .circularGeographic(try CircularGeographicCondition(fields))
        case "beaconIdentity":
            let identified = try inRecord ? fields.optionalString("uuid") != nil : true
            self = .beaconIdentity(identified ? try BeaconIdentityCondition(fields) : nil)
        case let type: self = .unsupported(type: type)
        }
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
    package var condition: Condition
    /// The state to assume until one is known (`assuming:`).
    package var assuming: MonitorState?

    /// Creates a request.
    package init(monitor: UInt64, identifier: String, condition: Condition, assuming: MonitorState? = nil) {
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
    package var condition: Condition
    /// Its last event.
    package var lastEvent: MonitorEvent

    /// Creates a record.
    package init(condition: Condition, lastEvent: MonitorEvent) {
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
        self.init(condition: try Condition(fields.fields("condition"), inRecord: true), lastEvent: try MonitorEvent(fields.fields("lastEvent")))
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
            departureDate: try fields.optionalTimestamp("departureDate"))
    }
}
