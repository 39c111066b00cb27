package import WaymarkLocation

/// The diagnostic properties of Core Location's authorization ("What's new in location
/// authorization", WWDC24) that a decision sets. Session diagnostics
/// (`CLServiceSession.Diagnostic`) have all but ``accuracyLimited``; updates
/// (`CLLocationUpdate`) have all but ``fullAccuracyDenied`` and ``alwaysAuthorizationDenied``.
package struct AuthorizationDiagnostics: OptionSet, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The app may not use location: denied, or location services are off.
    package static let authorizationDenied = AuthorizationDiagnostics(rawValue: 1 << 0)
    /// Location services are off for the whole board.
    package static let authorizationDeniedGlobally = AuthorizationDiagnostics(rawValue: 1 << 1)
    /// A policy locks the app as restricted.
    package static let authorizationRestricted = AuthorizationDiagnostics(rawValue: 1 << 2)
    /// The operator has not answered the app's request yet.
    package static let authorizationRequestInProgress = AuthorizationDiagnostics(rawValue: 1 << 3)
    /// The app is not in use: it cannot be asked for, or its authorization does not reach.
    package static let insufficientlyInUse = AuthorizationDiagnostics(rawValue: 1 << 4)
    /// The app requires explicit sessions and holds none.
    package static let serviceSessionRequired = AuthorizationDiagnostics(rawValue: 1 << 5)
    /// A session asks for full accuracy and the app has (and is not being asked for) none.
    package static let fullAccuracyDenied = AuthorizationDiagnostics(rawValue: 1 << 6)
    /// A session's goal is `always` and the app is not authorized always.
    package static let alwaysAuthorizationDenied = AuthorizationDiagnostics(rawValue: 1 << 7)
    /// Locations are reduced (one new one per ``ReducedAccuracy/interval``).
    package static let accuracyLimited = AuthorizationDiagnostics(rawValue: 1 << 8)

    /// Every flag with its protocol name, in the order names are listed.
    package static let named: [(AuthorizationDiagnostics, String)] = [
        (.authorizationDenied, "authorizationDenied"), (.authorizationDeniedGlobally, "authorizationDeniedGlobally"),
        (.authorizationRestricted, "authorizationRestricted"),
        (.authorizationRequestInProgress, "authorizationRequestInProgress"),
        (.insufficientlyInUse, "insufficientlyInUse"), (.serviceSessionRequired, "serviceSessionRequired"),
        (.fullAccuracyDenied, "fullAccuracyDenied"), (.alwaysAuthorizationDenied, "alwaysAuthorizationDenied"),
        (.accuracyLimited, "accuracyLimited"),
    ]

    /// The flags a session's diagnostics carry.
    package static let sessionFlags: AuthorizationDiagnostics = AuthorizationDiagnostics(rawValue: 0x1FF).subtracting(.accuracyLimited)
    /// The flags an update carries.
    package static let updateFlags: AuthorizationDiagnostics = AuthorizationDiagnostics(rawValue: 0x1FF)
        .subtracting([.fullAccuracyDenied, .alwaysAuthorizationDenied])

    /// The names of the flags that are set, in a stable order (the protocol's strings).
    package var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }

    /// `[authorizationDenied, authorizationDeniedGlobally]`.
    package var description: String { "[" + names.joined(separator: ", ") + "]" }
}

extension Diagnostics {
    /// The diagnostics of the same names as `flags`.
    package init(_ flags: AuthorizationDiagnostics) {
        self.init()
        authorizationDenied = flags.contains(.authorizationDenied)
        authorizationDeniedGlobally = flags.contains(.authorizationDeniedGlobally)
        authorizationRestricted = flags.contains(.authorizationRestricted)
        authorizationRequestInProgress = flags.contains(.authorizationRequestInProgress)
        insufficientlyInUse = flags.contains(.insufficientlyInUse)
        serviceSessionRequired = flags.contains(.serviceSessionRequired)
        fullAccuracyDenied = flags.contains(.fullAccuracyDenied)
        alwaysAuthorizationDenied = flags.contains(.alwaysAuthorizationDenied)
        accuracyLimited = flags.contains(.accuracyLimited)
    }
}
