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
    /// To `status`.
    case status(StatusReport)
    /// To `authorizationStatus`.
    case authorization(AuthorizationStatus)
    /// To `startServiceSession` and `startBackgroundActivitySession`.
    case session(UInt64)
    /// To `authorizationApps`.
    case apps(AuthorizationApps)
    /// To `openMonitor`: the monitor that the `monitorEvent` events name.
    case monitor(UInt64)
    /// To `monitorRecord`.
    case record(MonitorRecord)
    /// To `monitorIdentifiers`.
    case identifiers([String])

    /// The reply's `result` object.
    var json: JSONObject {
        switch self {
        case .hello(let hello): hello.json
        case .done: [:]
        case .subscription(let subscription): ["subscription": .integer(Int64(subscription))]
        case .location(let location): ["location": location.json]
        case .status(let status): ["status": status.json]
        case .authorization(let status): status.json
        case .session(let session): ["session": .integer(Int64(session))]
        case .apps(let apps): apps.json
        case .monitor(let monitor): ["monitor": .integer(Int64(monitor))]
        case .record(let record): ["record": .object(record.json)]
        case .identifiers(let identifiers): ["identifiers": .array(identifiers.map(JSONValue.string))]
        }
    }

    /// Decodes the `result` of a reply to `operation`.
    init(_ operation: OperationName, _ fields: Fields) throws(ProtocolError) {
        switch operation {
        case .hello: self = .hello(try HelloResult(fields))
        case .bye, .stopLiveUpdates, .cancelRequest, .stopServiceSession, .stopBackgroundActivitySession, .closeMonitor, .addCondition,
            .removeCondition, .authorizeApp, .setLocationServices, .answerTemporaryFullAccuracy:
            self = .done
        case .startLiveUpdates: self = .subscription(try fields.identifier("subscription"))
        case .requestLocation: self = .location(try Location(fields.fields("location")))
        case .status: self = .status(try StatusReport(fields.fields("status")))
        case .authorizationStatus: self = .authorization(try AuthorizationStatus(fields))
        case .startServiceSession, .startBackgroundActivitySession: self = .session(try fields.identifier("session"))
        case .authorizationApps: self = .apps(try AuthorizationApps(fields))
        case .openMonitor: self = .monitor(try fields.identifier("monitor"))
        case .monitorRecord: self = .record(try MonitorRecord(fields.fields("record")))
        case .monitorIdentifiers: self = .identifiers(try fields.strings("identifiers"))
        }
    }
}
