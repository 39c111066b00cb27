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
    /// To `startServiceSession`, `startBackgroundActivitySession` and `acceptInUseDelegation`.
    case session(UInt64)
    /// To `startInUseDelegation`: the delegation and the token to hand the other app.
    case delegation(session: UInt64, token: String)
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
        case .delegation(let session, let token): ["session": .integer(Int64(session)), "token": .string(token)]
        case .monitor(let monitor): ["monitor": .integer(Int64(monitor))]
        case .record(let record): ["record": .object(record.json)]
        case .identifiers(let identifiers): ["identifiers": .array(identifiers.map(JSONValue.string))]
        }
    }

    /// Decodes the `result` of a reply to `operation`.
    init(_ operation: OperationName, _ fields: Fields) throws(ProtocolError) {
        switch operation {
        case .hello: self = .hello(try HelloResult(fields))
        case .bye, .stopLiveUpdates, .cancelRequest, .stopServiceSession, .stopBackgroundActivitySession, .stopInUseDelegation,
            .closeMonitor, .addCondition, .removeCondition:
            self = .done
        case .startLiveUpdates: self = .subscription(try fields.identifier("subscription"))
        case .requestLocation: self = .location(try Location(fields.fields("location")))
        case .status: self = .status(try StatusReport(fields.fields("status")))
        case .authorizationStatus: self = .authorization(try AuthorizationStatus(fields))
        case .startServiceSession, .startBackgroundActivitySession, .acceptInUseDelegation:
            self = .session(try fields.identifier("session"))
        case .startInUseDelegation: self = .delegation(session: try fields.identifier("session"), token: try fields.string("token"))
        case .openMonitor: self = .monitor(try fields.identifier("monitor"))
        case .monitorRecord: self = .record(try MonitorRecord(fields.fields("record")))
        case .monitorIdentifiers: self = .identifiers(try fields.strings("identifiers"))
        }
    }
}
