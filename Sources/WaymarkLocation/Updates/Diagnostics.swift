/// Why an expected update could not come, or came with less than was asked: the diagnostic
/// properties Core Location attaches to every update. Rule: when an expected update can't
/// come, an update comes that says why.
public struct Diagnostics: Hashable, Sendable {
    /// The app is not authorized to use location.
    public var authorizationDenied = false
    /// Location services are switched off for the whole device.
    public var authorizationDeniedGlobally = false
    /// Location use is restricted by policy (the operator's configuration).
    public var authorizationRestricted = false
    /// An authorization request is waiting for the operator's answer.
    public var authorizationRequestInProgress = false
    /// The app is not "in use" (no foreground or background activity session) and its
    /// authorization does not allow use in the background.
    public var insufficientlyInUse = false
    /// No location is available right now (no fix, receiver starting, no receiver).
    public var locationUnavailable = false
    /// The app has reduced accuracy: locations are coarsened.
    public var accuracyLimited = false
    /// The app's configuration requires an explicit service session and none is held.
    public var serviceSessionRequired = false
    /// The app holds a session that asks for full accuracy (a `fullAccuracyPurposeKey`), and
    /// the operator refused it, or it could not be asked (the app was not in use).
    public var fullAccuracyDenied = false
    /// The app holds a session with an `always` goal, and is authorized less.
    public var alwaysAuthorizationDenied = false
    /// The client library lost its connection to the daemon (restart, crash) and is
    /// reconnecting. Not a Core Location property: Waymark's agent is a separate process.
    public var daemonUnavailable = false

    /// No diagnostics: everything as expected.
    public init() {}

    /// Whether any diagnostic is set.
    public var isEmpty: Bool { self == Diagnostics() }

    /// The names of the diagnostics that are set, in a stable order (for display and JSON).
    public var names: [String] {
        var names: [String] = []
        if authorizationDenied { names.append("authorizationDenied") }
        if authorizationDeniedGlobally { names.append("authorizationDeniedGlobally") }
        if authorizationRestricted { names.append("authorizationRestricted") }
        if authorizationRequestInProgress { names.append("authorizationRequestInProgress") }
        if insufficientlyInUse { names.append("insufficientlyInUse") }
        if locationUnavailable { names.append("locationUnavailable") }
        if accuracyLimited { names.append("accuracyLimited") }
        if serviceSessionRequired { names.append("serviceSessionRequired") }
        if fullAccuracyDenied { names.append("fullAccuracyDenied") }
        if alwaysAuthorizationDenied { names.append("alwaysAuthorizationDenied") }
        if daemonUnavailable { names.append("daemonUnavailable") }
        return names
    }

    /// Sets every diagnostic that `other` sets.
    package mutating func formUnion(_ other: Diagnostics) {
        authorizationDenied = authorizationDenied || other.authorizationDenied
        authorizationDeniedGlobally = authorizationDeniedGlobally || other.authorizationDeniedGlobally
        authorizationRestricted = authorizationRestricted || other.authorizationRestricted
        authorizationRequestInProgress = authorizationRequestInProgress || other.authorizationRequestInProgress
        insufficientlyInUse = insufficientlyInUse || other.insufficientlyInUse
        locationUnavailable = locationUnavailable || other.locationUnavailable
        accuracyLimited = accuracyLimited || other.accuracyLimited
        serviceSessionRequired = serviceSessionRequired || other.serviceSessionRequired
        fullAccuracyDenied = fullAccuracyDenied || other.fullAccuracyDenied
        alwaysAuthorizationDenied = alwaysAuthorizationDenied || other.alwaysAuthorizationDenied
        daemonUnavailable = daemonUnavailable || other.daemonUnavailable
    }

    /// Sets the diagnostic with the given name; returns false for an unknown name.
    @discardableResult
    public mutating func set(named name: some StringProtocol) -> Bool {
        switch name {
        case "authorizationDenied": authorizationDenied = true
        case "authorizationDeniedGlobally": authorizationDeniedGlobally = true
        case "authorizationRestricted": authorizationRestricted = true
        case "authorizationRequestInProgress": authorizationRequestInProgress = true
        case "insufficientlyInUse": insufficientlyInUse = true
        case "locationUnavailable": locationUnavailable = true
        case "accuracyLimited": accuracyLimited = true
        case "serviceSessionRequired": serviceSessionRequired = true
        case "fullAccuracyDenied": fullAccuracyDenied = true
        case "alwaysAuthorizationDenied": alwaysAuthorizationDenied = true
        case "daemonUnavailable": daemonUnavailable = true
        default: return false
        }
        return true
    }
}
