/// The `op` of a request: every operation of the protocol, including those a later version
/// of the daemon brings.
package enum OperationName: String, Hashable, Sendable, CaseIterable, ProtocolNamed {
    /// Opens the conversation: versions and the app's identity.
    case hello
    /// Ends the conversation; the daemon replies, then closes the connection.
    case bye
    /// The daemon's status report.
    case status
    /// Starts a live-updates subscription (`CLLocationUpdate.liveUpdates`).
    case startLiveUpdates
    /// Stops a live-updates subscription.
    case stopLiveUpdates
    /// One location after convergence (`requestLocation`).
    case requestLocation
    /// Withdraws a pending `requestLocation` (Core Location's `stopUpdatingLocation`), which
    /// releases the receiver.
    case cancelRequest
    /// The newest location the daemon has and its age (`CLLocationManager.location`), without
    /// powering the receiver.
    case lastKnownLocation
    /// The app's authorization and accuracy.
    case authorizationStatus
    /// Holds a service session (`CLServiceSession`): an authorization goal.
    case startServiceSession
    /// Releases a service session.
    case stopServiceSession
    /// Holds a background activity session (`CLBackgroundActivitySession`).
    case startBackgroundActivitySession
    /// Invalidates a background activity session.
    case stopBackgroundActivitySession
    /// Hands "in use" to another app for a piece of work: returns a token to give it.
    case startInUseDelegation
    /// Takes the in-use status a token carries: while held, the app is in use.
    case acceptInUseDelegation
    /// Ends a delegation, given or accepted.
    case stopInUseDelegation
    /// Every app the daemon knows, with its authorization (the operator's, `waymark auth list`).
    case authorizationApps
    /// Sets an app's authorization or accuracy (the operator's).
    case authorizeApp
    /// Switches location services for the whole board (the operator's).
    case setLocationServices
    /// Gives or refuses an app temporary full accuracy (the operator's).
    case answerTemporaryFullAccuracy
    /// Opens a named monitor (`CLMonitor`), creating it on first use; its events follow.
    case openMonitor
    /// Stops the events of an open monitor (its conditions persist).
    case closeMonitor
    /// Adds a condition to a monitor, or replaces the one with the same identifier.
    case addCondition
    /// Removes a condition from a monitor.
    case removeCondition
    /// The record of one condition: the condition and its last event.
    case monitorRecord
    /// The identifiers of a monitor's conditions.
    case monitorIdentifiers
    /// Tells the daemon the app has a monitor's events up to a sequence number: they are not
    /// sent again.
    case acknowledgeMonitorEvents
    /// The device's visit diary (`CLVisit`s): where it stayed 5 minutes or more.
    case visits
    /// Starts visit monitoring for the app (`startMonitoringVisits`): each arrival and
    /// departure the device makes comes as a `visit` event, until it stops.
    case startVisitMonitoring
    /// Stops the app's visit monitoring (`stopMonitoringVisits`).
    case stopVisitMonitoring
    /// Tells the daemon the app has the visits kept for it up to a sequence number: they are
    /// not sent again.
    case acknowledgeVisits

    /// The protocol version that brings the operation: 1 for live updates, location requests
    /// and status; 2 for authorization and sessions; 3 for monitors.
    package var introducedIn: Int {
        switch self {
        case .hello, .bye, .status, .startLiveUpdates, .stopLiveUpdates, .requestLocation, .cancelRequest: 1
        case .lastKnownLocation, .authorizationStatus, .startServiceSession, .stopServiceSession,
            .startBackgroundActivitySession, .stopBackgroundActivitySession, .startInUseDelegation, .acceptInUseDelegation,
            .stopInUseDelegation, .authorizationApps, .authorizeApp, .setLocationServices, .answerTemporaryFullAccuracy: 2
        case .openMonitor, .closeMonitor, .addCondition, .removeCondition, .monitorRecord, .monitorIdentifiers,
            .acknowledgeMonitorEvents, .visits, .startVisitMonitoring, .stopVisitMonitoring, .acknowledgeVisits: 3
        }
    }
}
