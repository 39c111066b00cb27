package import WaymarkJSON
package import WaymarkLocation

/// A message the daemon sends on its own, for a subscription, session or monitor.
package enum Event: Hashable, Sendable {
    /// A live update: `{"event":"update","subscription":7,"update":{…},"missed":0}`.
    case update(UpdateEvent)
    /// A deferred subscription's batch, or one part of it, oldest first:
    /// `{"event":"batch","subscription":7,"updates":[{…},{…}],"overflow":0,"more":false}`.
    case batch(BatchEvent)
    /// A service session's diagnostics changed (version 2):
    /// `{"event":"sessionDiagnostics","session":3,"diagnostics":["authorizationRequestInProgress"]}`.
    case sessionDiagnostics(session: UInt64, diagnostics: [String])
    /// A monitor's event (version 3): `{"event":"monitorEvent","monitor":2,"sequence":9,"identifier":"home",…}`.
    /// `sequence` is what the app acknowledges (`acknowledgeMonitorEvents`); nil when the
    /// daemon could not keep the event (`persistenceUnavailable`): it is sent once.
    case monitorEvent(monitor: UInt64, sequence: UInt64?, event: MonitorEvent)
    /// An arrival or a departure, for an app that monitors visits (version 3):
    /// `{"event":"visit","sequence":4,"visit":{"latitude":…,"arrivalDate":…,"departureDate":null}}`.
    /// `sequence` is present on a visit kept while the app was away, which it acknowledges
    /// (`acknowledgeVisits`); a visit sent as it happens has none and is sent once.
    case visit(sequence: UInt64?, Visit)

    /// Writes the event's object.
    package func write(to buffer: inout JSONBuffer) {
        switch self {
        case .update(let update):
            UpdateEvent.write(subscription: update.subscription, missed: update.missed, to: &buffer) { update.update.write(to: &$0) }
        case .batch(let batch):
            BatchEvent.write(
                subscription: batch.subscription, encodedUpdates: batch.updates.map(UpdateEvent.encode)[...],
                overflow: batch.overflow, more: batch.more, to: &buffer)
        case .sessionDiagnostics(let session, let diagnostics):
            buffer.beginObject()
            buffer.member("event", "sessionDiagnostics")
            buffer.member("session", session)
            buffer.member("diagnostics", strings: diagnostics)
            buffer.endObject()
        case .monitorEvent(let monitor, let sequence, let event):
            buffer.beginObject()
            buffer.member("event", "monitorEvent")
            buffer.member("monitor", monitor)
            if let sequence { buffer.member("sequence", sequence) }
            event.writeMembers(to: &buffer)
            buffer.endObject()
        case .visit(let sequence, let visit):
            buffer.beginObject()
            buffer.member("event", "visit")
            if let sequence { buffer.member("sequence", sequence) }
            buffer.key("visit")
            visit.write(to: &buffer)
            buffer.endObject()
        }
    }

    /// Decodes an event's members.
    init(_ fields: Fields) throws(ProtocolError) {
        switch try fields.string("event") {
        case "update":
            self = .update(UpdateEvent(
                subscription: try fields.identifier("subscription"), update: try LocationUpdate(fields.fields("update")),
                missed: try fields.optionalInteger("missed") ?? 0))
        case "batch":
            self = .batch(try BatchEvent(fields))
        case "sessionDiagnostics":
            self = .sessionDiagnostics(session: try fields.identifier("session"), diagnostics: try fields.strings("diagnostics"))
        case "monitorEvent":
            self = .monitorEvent(
                monitor: try fields.identifier("monitor"), sequence: try fields.optionalIdentifier("sequence"), event: try MonitorEvent(fields))
        case "visit":
            self = .visit(sequence: try fields.optionalIdentifier("sequence"), try Visit(fields.fields("visit")))
        case let other:
            throw fields.invalid("event", "unknown event \"\(other)\"")
        }
    }
}

/// One live update for a subscription, with how many older ones were dropped for it.
package struct UpdateEvent: Hashable, Sendable {
    /// The subscription, as the reply to `startLiveUpdates` named it.
    package var subscription: UInt64
    /// The update.
    package var update: LocationUpdate
    /// How many updates for this subscription the daemon dropped since the last one it
    /// delivered, because the client did not read fast enough (only the newest is kept).
    package var missed: Int

    /// Creates an event.
    package init(subscription: UInt64, update: LocationUpdate, missed: Int = 0) {
        self.subscription = subscription
        self.update = update
        self.missed = missed
    }
}

extension UpdateEvent {
    /// The update's JSON, encoded once and shared by every client it goes to.
    package static func encode(_ update: LocationUpdate) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 512)
        update.write(to: &buffer)
        return buffer.bytes
    }

    /// The event's line from an update ``encode(_:)`` made: the same bytes as
    /// `ServerMessage.event(.update(…)).line`, without encoding the update again.
    package static func line(subscription: UInt64, encodedUpdate: [UInt8], missed: Int) -> [UInt8] {
        var buffer = JSONBuffer(capacity: encodedUpdate.count + 64)
        write(subscription: subscription, missed: missed, to: &buffer) { $0.raw(encodedUpdate) }
        buffer.newline()
        return buffer.bytes
    }

    /// Writes an `update` event's object, the update itself by `writeUpdate`.
    static func write(subscription: UInt64, missed: Int, to buffer: inout JSONBuffer, update writeUpdate: (inout JSONBuffer) -> Void) {
        buffer.beginObject()
        buffer.member("event", "update")
        buffer.member("subscription", subscription)
        buffer.key("update")
        writeUpdate(&buffer)
        buffer.member("missed", missed)
        buffer.endObject()
    }
}

extension Event {
    /// The line of a `sessionDiagnostics` event, written straight into a buffer: the same
    /// bytes as `ServerMessage.event(.sessionDiagnostics(…)).line`.
    package static func sessionDiagnosticsLine(session: UInt64, diagnostics: [String]) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 96)
        buffer.beginObject()
        buffer.member("event", "sessionDiagnostics")
        buffer.member("session", Int(session))
        buffer.key("diagnostics")
        buffer.beginArray()
        for name in diagnostics { buffer.string(name) }
        buffer.endArray()
        buffer.endObject()
        buffer.newline()
        return buffer.bytes
    }
}
