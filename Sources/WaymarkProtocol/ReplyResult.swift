import WaymarkJSON
package import WaymarkLocation

/// What a successful reply carries; which case depends on the request's operation.
package enum ReplyResult: Hashable, Sendable {
    /// To `hello`.
    case hello(HelloResult)
    /// To operations that return nothing (`bye`, `stopLiveUpdates`, …): `{}`.
    case done
    /// To `startLiveUpdates`: the subscription that the `update` events name.
    case subscription(UInt64)
    /// To `requestLocation`.
    case location(Location)
    /// To `lastKnownLocation`: the location and its age, or none.
    case lastKnown(LastKnownLocation?)
    /// To `status`.
    case status(StatusReport)
    /// To `authorizationStatus`.
    case authorization(AuthorizationStatus)
    /// To `startServiceSession`, `startBackgroundActivitySession` and `acceptInUseDelegation`.
    case session(UInt64)
    /// To `startInUseDelegation`: the delegation and the token to hand the other app.
    case delegation(session: UInt64, token: String)
    /// To `authorizationApps`.
    case apps(AuthorizationApps)
    /// To `openMonitor`: the monitor that the `monitorEvent` events name.
    case monitor(UInt64)
    /// To `monitorRecord`: the record, or nil when the monitor has no condition of that
    /// identifier (`CLMonitor.record(for:)` returning nil).
    case record(MonitorRecord?)
    /// To `monitorIdentifiers`.
    case identifiers([String])
    /// To `visits`: a page of the diary, oldest arrival first.
    case visits(VisitDiaryPage)

    /// Writes the reply's `result` object.
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        switch self {
        case .hello(let hello): hello.writeMembers(to: &buffer)
        case .done: break
        case .subscription(let subscription): buffer.member("subscription", subscription)
        case .location(let location):
            buffer.key("location")
            location.write(to: &buffer)
        case .lastKnown(let last):
            last.writeMembers(to: &buffer)
        case .status(let status):
            buffer.key("status")
            status.write(to: &buffer)
        case .authorization(let status): status.writeMembers(to: &buffer)
        case .session(let session): buffer.member("session", session)
        case .delegation(let session, let token):
            buffer.member("session", session)
            buffer.member("token", text: token)
        case .apps(let apps): apps.writeMembers(to: &buffer)
        case .monitor(let monitor): buffer.member("monitor", monitor)
        case .record(let record):
            buffer.key("record")
            if let record { record.write(to: &buffer) } else { buffer.null() }
        case .identifiers(let identifiers): buffer.member("identifiers", strings: identifiers)
        case .visits(let page): page.writeMembers(to: &buffer)
        }
        buffer.endObject()
    }

    /// Decodes the `result` of a reply to `operation`.
    init(_ operation: OperationName, _ fields: Fields) throws(ProtocolError) {
        switch operation {
        case .hello: self = .hello(try HelloResult(fields))
        case .bye, .stopLiveUpdates, .cancelRequest, .stopServiceSession, .stopBackgroundActivitySession, .stopInUseDelegation,
            .closeMonitor, .addCondition, .removeCondition, .acknowledgeMonitorEvents, .authorizeApp, .setLocationServices, .answerTemporaryFullAccuracy,
            .startVisitMonitoring, .stopVisitMonitoring, .acknowledgeVisits:
            self = .done
        case .startLiveUpdates: self = .subscription(try fields.identifier("subscription"))
        case .requestLocation: self = .location(try Location(fields.fields("location")))
        case .lastKnownLocation: self = .lastKnown(try LastKnownLocation.decode(fields))
        case .status: self = .status(try StatusReport(fields.fields("status")))
        case .authorizationStatus: self = .authorization(try AuthorizationStatus(fields))
        case .startServiceSession, .startBackgroundActivitySession, .acceptInUseDelegation:
            self = .session(try fields.identifier("session"))
        case .startInUseDelegation: self = .delegation(session: try fields.identifier("session"), token: try fields.string("token"))
        case .authorizationApps: self = .apps(try AuthorizationApps(fields))
        case .openMonitor: self = .monitor(try fields.identifier("monitor"))
        case .monitorRecord: self = .record(try fields.optionalFields("record").map { fields throws(ProtocolError) in try MonitorRecord(fields) })
        case .monitorIdentifiers: self = .identifiers(try fields.strings("identifiers"))
        case .visits: self = .visits(try VisitDiaryPage(fields))
        }
    }
}
