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
    /// Starts live updates with a configuration and delivery options (version 1; the options'
    /// distance filter, minimum interval and passive listening are optional members).
    case startLiveUpdates(LiveConfiguration, DeliveryOptions = DeliveryOptions())
    /// Stops a live-updates subscription (version 1).
    case stopLiveUpdates(subscription: UInt64)
    /// Asks for one location (version 1).
    case requestLocation(LocationRequest)
    /// Withdraws the pending `requestLocation` whose request had the id `request` (version 1).
    case cancelRequest(request: MessageID)
    /// Asks for the newest location the daemon has, however old (version 2).
    case lastKnownLocation
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
    /// Delegates "in use" to whichever app accepts the token in the reply (version 2).
    case startInUseDelegation
    /// Accepts a delegation by its token (version 2).
    case acceptInUseDelegation(token: String)
    /// Ends a delegation, given or accepted (version 2).
    case stopInUseDelegation(session: UInt64)
    /// Lists the apps the daemon knows, a page at a time: those after `after` (version 2; the
    /// operator's).
    case authorizationApps(after: AppReference?)
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
    /// Acknowledges a monitor's events through a sequence number (version 3).
    case acknowledgeMonitorEvents(monitor: UInt64, through: UInt64)
    /// Asks for a page of the visit diary: the visits that arrived after `after` (version 3).
    case visits(after: Timestamp?)
    /// Starts the app's visit monitoring: `visit` events follow (version 3).
    case startVisitMonitoring
    /// Stops the app's visit monitoring (version 3).
    case stopVisitMonitoring
    /// Acknowledges the visits kept for the app through a sequence number (version 3).
    case acknowledgeVisits(through: UInt64)

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
        case .lastKnownLocation: .lastKnownLocation
        case .authorizationStatus: .authorizationStatus
        case .startServiceSession: .startServiceSession
        case .stopServiceSession: .stopServiceSession
        case .startBackgroundActivitySession: .startBackgroundActivitySession
        case .stopBackgroundActivitySession: .stopBackgroundActivitySession
        case .startInUseDelegation: .startInUseDelegation
        case .acceptInUseDelegation: .acceptInUseDelegation
        case .stopInUseDelegation: .stopInUseDelegation
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
        case .acknowledgeMonitorEvents: .acknowledgeMonitorEvents
        case .visits: .visits
        case .startVisitMonitoring: .startVisitMonitoring
        case .stopVisitMonitoring: .stopVisitMonitoring
        case .acknowledgeVisits: .acknowledgeVisits
        }
    }

    /// Writes the operation's parameters: the request's members besides `id` and `op`
    /// (an absent optional is left out: absent and `null` mean the same in the protocol).
    func writeParameters(to buffer: inout JSONBuffer) {
        switch self {
        case .bye, .status, .lastKnownLocation, .authorizationStatus, .startBackgroundActivitySession, .startInUseDelegation,
            .startVisitMonitoring, .stopVisitMonitoring:
            break
        case .visits(let after):
            if let after {
                buffer.key("after")
                buffer.string(unescaped: after.appendProtocolText)
            }
        case .authorizationApps(let after):
            if let after {
                buffer.key("after")
                after.write(to: &buffer)
            }
        case .acceptInUseDelegation(let token): buffer.member("token", text: token)
        case .hello(let hello):
            buffer.member("version", hello.version)
            if let appID = hello.appID { buffer.member("appID", text: appID) }
            if let usageDescription = hello.usageDescription { buffer.member("usageDescription", text: usageDescription) }
        case .authorizeApp(let request):
            buffer.key("app")
            request.app.write(to: &buffer)
            if let authorization = request.authorization { buffer.member("authorization", text: authorization.rawValue) }
            if let fullAccuracy = request.fullAccuracy { buffer.member("fullAccuracy", fullAccuracy) }
        case .setLocationServices(let enabled): buffer.member("enabled", enabled)
        case .answerTemporaryFullAccuracy(let app, let granted):
            buffer.key("app")
            app.write(to: &buffer)
            buffer.member("granted", granted)
        case .startLiveUpdates(let configuration, let options): options.writeParameters(configuration: configuration, to: &buffer)
        case .stopLiveUpdates(let subscription): buffer.member("subscription", subscription)
        case .requestLocation(let request):
            buffer.member("desiredAccuracy", number: request.desiredAccuracy)
            buffer.member("timeout", number: request.timeout.seconds)
        case .cancelRequest(let request):
            buffer.key("request")
            request.write(to: &buffer)
        case .startServiceSession(let request):
            buffer.member("authorization", text: request.authorization.rawValue)
            if let key = request.fullAccuracyPurposeKey { buffer.member("fullAccuracyPurposeKey", text: key) }
        case .stopServiceSession(let session), .stopBackgroundActivitySession(let session), .stopInUseDelegation(let session):
            buffer.member("session", session)
        case .openMonitor(let name): buffer.member("name", text: name)
        case .closeMonitor(let monitor), .monitorIdentifiers(let monitor): buffer.member("monitor", monitor)
        case .addCondition(let request):
            buffer.member("monitor", request.monitor)
            buffer.member("identifier", text: request.identifier)
            buffer.key("condition")
            request.condition.write(to: &buffer)
            if let assuming = request.assuming { buffer.member("assuming", text: assuming.rawValue) }
        case .removeCondition(let monitor, let identifier), .monitorRecord(let monitor, let identifier):
            buffer.member("monitor", monitor)
            buffer.member("identifier", text: identifier)
        case .acknowledgeMonitorEvents(let monitor, let through):
            buffer.member("monitor", monitor)
            buffer.member("through", through)
        case .acknowledgeVisits(let through): buffer.member("through", through)
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
            self = .startLiveUpdates(
                try fields.optionalNamed("configuration", as: LiveConfiguration.self) ?? .default, try DeliveryOptions(fields))
        case .stopLiveUpdates: self = .stopLiveUpdates(subscription: try fields.identifier("subscription"))
        case .requestLocation: self = .requestLocation(try LocationRequest(fields))
        case .cancelRequest: self = .cancelRequest(request: try fields.require("request", "an integer or a string", MessageID.init(json:)))
        case .lastKnownLocation: self = .lastKnownLocation
        case .authorizationStatus: self = .authorizationStatus
        case .startServiceSession:
            self = .startServiceSession(ServiceSessionRequest(
                authorization: try fields.named("authorization", as: ServiceSessionAuthorization.self),
                fullAccuracyPurposeKey: try fields.optionalString("fullAccuracyPurposeKey")))
        case .stopServiceSession: self = .stopServiceSession(session: try fields.identifier("session"))
        case .startBackgroundActivitySession: self = .startBackgroundActivitySession
        case .stopBackgroundActivitySession: self = .stopBackgroundActivitySession(session: try fields.identifier("session"))
        case .startInUseDelegation: self = .startInUseDelegation
        case .acceptInUseDelegation: self = .acceptInUseDelegation(token: try fields.string("token"))
        case .stopInUseDelegation: self = .stopInUseDelegation(session: try fields.identifier("session"))
        case .authorizationApps: self = .authorizationApps(after: try fields.optionalFields("after").map(AppReference.init))
        case .visits: self = .visits(after: try fields.optionalTimestamp("after"))
        case .startVisitMonitoring: self = .startVisitMonitoring
        case .stopVisitMonitoring: self = .stopVisitMonitoring
        case .acknowledgeVisits: self = .acknowledgeVisits(through: try fields.identifier("through"))
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
                condition: try Condition(fields.fields("condition"), inRecord: false),
                assuming: try fields.optionalNamed("assuming", as: MonitorState.self)))
        case .removeCondition:
            self = .removeCondition(monitor: try fields.identifier("monitor"), identifier: try fields.string("identifier"))
        case .monitorRecord:
            self = .monitorRecord(monitor: try fields.identifier("monitor"), identifier: try fields.string("identifier"))
        case .monitorIdentifiers: self = .monitorIdentifiers(monitor: try fields.identifier("monitor"))
        case .acknowledgeMonitorEvents:
            self = .acknowledgeMonitorEvents(monitor: try fields.identifier("monitor"), through: try fields.identifier("through"))
        }
    }
}

extension LocationRequest {
    /// Decodes `desiredAccuracy` (metres, at least 0; default 0) and `timeout` (seconds,
    /// ``isValidTimeout(_:)``; default 30).
    init(_ fields: Fields) throws(ProtocolError) {
        let accuracy = try fields.optionalDouble("desiredAccuracy") ?? 0
        guard Self.isValidAccuracy(accuracy) else { throw fields.invalid("desiredAccuracy", "expected \(Self.validAccuracies), found \(accuracy)") }
        let seconds = try fields.optionalDouble("timeout") ?? 30
        guard Self.isValidTimeout(seconds) else {
            throw fields.invalid("timeout", "expected \(Self.validTimeouts), found \(seconds)")
        }
        self.init(desiredAccuracy: accuracy, timeout: .seconds(seconds))
    }
}

extension LiveConfiguration: ProtocolNamed {}
