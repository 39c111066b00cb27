import WaymarkClock
import WaymarkJSON
package import WaymarkLocation

/// What a request asks for: an operation and its parameters (`docs/protocol.md` lists them).
package enum Operation: Hashable, Sendable {
    /// Opens the conversation (version 1).
    case hello(Hello)
    /// Ends the conversation (version 1).
    case bye
    /// Asks for the daemon's status report (version 1).
    case status
    /// Starts live updates with a configuration (version 1).
    case startLiveUpdates(LiveConfiguration)
    /// Stops a live-updates subscription (version 1).
    case stopLiveUpdates(subscription: UInt64)
    /// Asks for one location (version 1).
    case requestLocation(LocationRequest)
    /// Withdraws the pending `requestLocation` whose request had the id `request` (version 1).
    case cancelRequest(request: MessageID)
    /// Asks for the app's authorization (version 2).
    case authorizationStatus
    /// Holds a service session (version 2).
    case startServiceSession(ServiceSessionRequest)
    /// Releases a service session (version 2).
    case stopServiceSession(session: UInt64)
    /// Holds a background activity session (version 2).
    case startBackgroundActivitySession
    /// Invalidates a background activity session (version 2).
    case stopBackgroundActivitySession(session: UInt64)
    /// Lists the apps the daemon knows (version 2; the operator's).
    case authorizationApps
    /// Decides about an app (version 2; the operator's).
    case authorizeApp(AuthorizeAppRequest)
    /// Switches location services for the board (version 2; the operator's).
    case setLocationServices(enabled: Bool)
    /// Answers an app's temporary full accuracy request (version 2; the operator's).
    case answerTemporaryFullAccuracy(app: AppReference, granted: Bool)
    /// Opens a named monitor (version 3).
    case openMonitor(name: String)
    /// Closes an open monitor (version 3).
    case closeMonitor(monitor: UInt64)
    /// Adds or replaces a condition (version 3).
    case addCondition(ConditionRequest)
    /// Removes a condition (version 3).
    case removeCondition(monitor: UInt64, identifier: String)
    /// Asks for a condition's record (version 3).
    case monitorRecord(monitor: UInt64, identifier: String)
    /// Asks for a monitor's condition identifiers (version 3).
    case monitorIdentifiers(monitor: UInt64)

    /// The operation's `op`.
    package var name: OperationName {
        switch self {
        case .hello: .hello
        case .bye: .bye
        case .status: .status
        case .startLiveUpdates: .startLiveUpdates
        case .stopLiveUpdates: .stopLiveUpdates
        case .requestLocation: .requestLocation
        case .cancelRequest: .cancelRequest
        case .authorizationStatus: .authorizationStatus
        case .startServiceSession: .startServiceSession
        case .stopServiceSession: .stopServiceSession
        case .startBackgroundActivitySession: .startBackgroundActivitySession
        case .stopBackgroundActivitySession: .stopBackgroundActivitySession
        case .authorizationApps: .authorizationApps
        case .authorizeApp: .authorizeApp
        case .setLocationServices: .setLocationServices
        case .answerTemporaryFullAccuracy: .answerTemporaryFullAccuracy
        case .openMonitor: .openMonitor
        case .closeMonitor: .closeMonitor
        case .addCondition: .addCondition
        case .removeCondition: .removeCondition
        case .monitorRecord: .monitorRecord
        case .monitorIdentifiers: .monitorIdentifiers
        }
    }

    /// The operation's parameters: the request's members besides `id` and `op`.
    var parameters: JSONObject {
        switch self {
        case .bye, .status, .authorizationStatus, .startBackgroundActivitySession, .authorizationApps: [:]
        case .hello(let hello):
            [
                "version": .integer(Int64(hello.version)), "appID": hello.appID.map(JSONValue.string) ?? .null,
                "usageDescription": hello.usageDescription.map(JSONValue.string) ?? .null,
            ]
        case .authorizeApp(let request):
            [
                "app": request.app.json, "authorization": request.authorization.map { .string($0.rawValue) } ?? .null,
                "fullAccuracy": request.fullAccuracy.map(JSONValue.bool) ?? .null,
            ]
        case .setLocationServices(let enabled): ["enabled": .bool(enabled)]
        case .answerTemporaryFullAccuracy(let app, let granted): ["app": app.json, "granted": .bool(granted)]
        case .startLiveUpdates(let configuration): ["configuration": .string(configuration.rawValue)]
        case .stopLiveUpdates(let subscription): ["subscription": .integer(Int64(subscription))]
        case .requestLocation(let request):
            ["desiredAccuracy": .double(request.desiredAccuracy), "timeout": .double(request.timeout.seconds)]
        case .cancelRequest(let request): ["request": request.json]
        case .startServiceSession(let request):
            [
                "authorization": .string(request.authorization.rawValue),
                "fullAccuracyPurposeKey": request.fullAccuracyPurposeKey.map(JSONValue.string) ?? .null,
            ]
        case .stopServiceSession(let session), .stopBackgroundActivitySession(let session):
            ["session": .integer(Int64(session))]
        case .openMonitor(let name): ["name": .string(name)]
        case .closeMonitor(let monitor), .monitorIdentifiers(let monitor): ["monitor": .integer(Int64(monitor))]
        case .addCondition(let request):
            [
                "monitor": .integer(Int64(request.monitor)), "identifier": .string(request.identifier),
                "condition": request.condition.json, "assuming": request.assuming.map { .string($0.rawValue) } ?? .null,
            ]
        case .removeCondition(let monitor, let identifier), .monitorRecord(let monitor, let identifier):
            ["monitor": .integer(Int64(monitor)), "identifier": .string(identifier)]
        }
    }

    /// Decodes the parameters of the operation `name` from a request's members.
    init(_ name: OperationName, _ fields: Fields) throws(ProtocolError) {
        switch name {
        case .hello:
            let version = try fields.integer("version")
            self = .hello(Hello(
                version: version, appID: try fields.optionalString("appID"), usageDescription: try fields.optionalString("usageDescription")))
        case .bye: self = .bye
        case .status: self = .status
        case .startLiveUpdates:
            self = .startLiveUpdates(try fields.optionalNamed("configuration", as: LiveConfiguration.self) ?? .default)
        case .stopLiveUpdates: self = .stopLiveUpdates(subscription: try fields.identifier("subscription"))
        case .requestLocation: self = .requestLocation(try LocationRequest(fields))
        case .cancelRequest: self = .cancelRequest(request: try fields.require("request", "an integer or a string", MessageID.init(json:)))
        case .authorizationStatus: self = .authorizationStatus
        case .startServiceSession:
            self = .startServiceSession(ServiceSessionRequest(
                authorization: try fields.named("authorization", as: ServiceSessionAuthorization.self),
                fullAccuracyPurposeKey: try fields.optionalString("fullAccuracyPurposeKey")))
        case .stopServiceSession: self = .stopServiceSession(session: try fields.identifier("session"))
        case .startBackgroundActivitySession: self = .startBackgroundActivitySession
        case .stopBackgroundActivitySession: self = .stopBackgroundActivitySession(session: try fields.identifier("session"))
        case .authorizationApps: self = .authorizationApps
        case .authorizeApp:
            let request = AuthorizeAppRequest(
                app: try AppReference(fields.fields("app")),
                authorization: try fields.optionalNamed("authorization", as: AuthorizationState.self),
                fullAccuracy: try fields.optional("fullAccuracy", "a boolean") { $0.boolValue })
            guard request.authorization != nil || request.fullAccuracy != nil else {
                throw fields.invalid("authorization", "give authorization, fullAccuracy or both")
            }
            self = .authorizeApp(request)
        case .setLocationServices: self = .setLocationServices(enabled: try fields.bool("enabled"))
        case .answerTemporaryFullAccuracy:
            self = .answerTemporaryFullAccuracy(app: try AppReference(fields.fields("app")), granted: try fields.bool("granted"))
        case .openMonitor: self = .openMonitor(name: try fields.string("name"))
        case .closeMonitor: self = .closeMonitor(monitor: try fields.identifier("monitor"))
        case .addCondition:
            self = .addCondition(ConditionRequest(
                monitor: try fields.identifier("monitor"), identifier: try fields.string("identifier"),
                condition: try CircularGeographicCondition(fields.fields("condition")),
                assuming: try fields.optionalNamed("assuming", as: MonitorState.self)))
        case .removeCondition:
            self = .removeCondition(monitor: try fields.identifier("monitor"), identifier: try fields.string("identifier"))
        case .monitorRecord:
            self = .monitorRecord(monitor: try fields.identifier("monitor"), identifier: try fields.string("identifier"))
        case .monitorIdentifiers: self = .monitorIdentifiers(monitor: try fields.identifier("monitor"))
        }
    }
}

extension LocationRequest {
    /// Decodes `desiredAccuracy` (metres, at least 0; default 0) and `timeout` (seconds,
    /// ``isValidTimeout(_:)``; default 30).
    init(_ fields: Fields) throws(ProtocolError) {
        let accuracy = try fields.optionalDouble("desiredAccuracy") ?? 0
        guard accuracy >= 0 else { throw fields.invalid("desiredAccuracy", "expected at least 0 metres, found \(accuracy)") }
        let seconds = try fields.optionalDouble("timeout") ?? 30
        guard Self.isValidTimeout(seconds) else {
            throw fields.invalid("timeout", "expected \(Self.validTimeouts), found \(seconds)")
        }
        self.init(desiredAccuracy: accuracy, timeout: .seconds(seconds))
    }
}

extension LiveConfiguration: ProtocolNamed {}
