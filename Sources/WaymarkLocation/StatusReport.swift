/// The daemon's state at a glance: the answer to `status` (`waymark status` prints it).
public struct StatusReport: Hashable, Sendable {
    /// Where locations come from.
    public struct Source: Hashable, Sendable {
        /// `simulated`, `replay` or `serial`.
        public var kind: String
        /// For people: the device and speed, the capture file, the scenario.
        public var description: String
        /// Whether the locations are simulated (``SourceInformation/isSimulatedBySoftware``).
        public var isSimulated: Bool

        /// Creates a source description.
        public init(kind: String, description: String, isSimulated: Bool) {
            self.kind = kind
            self.description = description
            self.isSimulated = isSimulated
        }
    }

    /// Time and energy spent in one receiver power state since the daemon started.
    public struct PowerLedgerEntry: Hashable, Sendable {
        /// The power state's name, such as `acquiring`, `tracking` or `off`.
        public var state: String
        /// Seconds spent in it.
        public var seconds: Double
        /// Energy spent in it, milliwatt-hours.
        public var milliwattHours: Double

        /// Creates an entry.
        public init(state: String, seconds: Double, milliwattHours: Double) {
            self.state = state
            self.seconds = seconds
            self.milliwattHours = milliwattHours
        }
    }

    /// The daemon's version.
    public var daemonVersion: String
    /// Seconds since the daemon started, on its clock: a simulation run faster counts faster, as
    /// the power ledger does.
    public var uptime: Double
    /// Where locations come from.
    public var source: Source
    /// The receiver's power state now, such as `tracking` or `off`.
    public var receiverPowerState: String
    /// When the receiver entered that state, in seconds of ``uptime``.
    public var receiverPowerSince: Double
    /// The last location the engine had, if any.
    public var lastLocation: Location?
    /// Whether the device is stationary.
    public var isStationary: Bool
    /// Connected clients.
    public var clients: Int
    /// Live-updates subscriptions across all clients.
    public var liveSubscriptions: Int
    /// `requestLocation` requests not answered yet.
    public var pendingRequests: Int
    /// The daemon-wide diagnostics (such as `locationUnavailable`).
    public var diagnostics: Diagnostics
    /// Time and energy per receiver power state.
    public var powerLedger: [PowerLedgerEntry]
    /// Receiver power transitions since the daemon started.
    public var transitions: Int
    /// How the daemon tells that the device is stationary: `accelerometer`, or `gps-only:`
    /// followed by why (no accelerometer on the board, or the one it has failed).
    public var motionDetection: String
    /// What the daemon's event loop holds: a long-running daemon's counts stay flat.
    public var eventLoop: EventLoopCounts?
    /// The most recent transitions (at most ``recentTransitionLimit``), oldest first, with
    /// wall-clock times so an external power meter's trace can be aligned with them.
    public var recentTransitions: [PowerTransition]
    /// Who the connected clients are, as the kernel says (docs/authorization.md): every client
    /// for an operator (root or `waymark-admin`), else the asking client alone.
    public var connectedApps: [ConnectedApp] = []
    /// Sessions held and what apps that are away keep, in all (docs/semantics.md, "Consumers
    /// that come and go").
    public var sessions = SessionCounts()
    /// The same per app, for the apps holding or keeping any: every app for an operator, else
    /// the asking client's app alone; at most 64, by name.
    public var appSessions: [AppSessions] = []

    /// Sessions held by connected clients and what apps that are away keep to re-take.
    public struct SessionCounts: Hashable, Sendable {
        /// Service sessions (`CLServiceSession`) the connected clients hold, not counting the
        /// implicit ones of iterating updates or waiting for a location.
        public var serviceSessions: Int
        /// Background activity sessions the connected clients hold.
        public var backgroundActivitySessions: Int
        /// Live subscriptions kept for apps that are away.
        public var keptSubscriptions: Int
        /// Location requests kept for apps that are away, pending or answered.
        public var keptRequests: Int
        /// Background activity sessions kept for apps that are away.
        public var keptBackgroundActivitySessions: Int

        /// Creates the counts.
        public init(
            serviceSessions: Int = 0, backgroundActivitySessions: Int = 0, keptSubscriptions: Int = 0, keptRequests: Int = 0,
            keptBackgroundActivitySessions: Int = 0
        ) {
            self.serviceSessions = serviceSessions
            self.backgroundActivitySessions = backgroundActivitySessions
            self.keptSubscriptions = keptSubscriptions
            self.keptRequests = keptRequests
            self.keptBackgroundActivitySessions = keptBackgroundActivitySessions
        }

        /// Whether every count is zero.
        public var isEmpty: Bool { self == SessionCounts() }

        /// The sum of two apps' counts.
        public static func + (left: SessionCounts, right: SessionCounts) -> SessionCounts {
            SessionCounts(
                serviceSessions: left.serviceSessions + right.serviceSessions,
                backgroundActivitySessions: left.backgroundActivitySessions + right.backgroundActivitySessions,
                keptSubscriptions: left.keptSubscriptions + right.keptSubscriptions,
                keptRequests: left.keptRequests + right.keptRequests,
                keptBackgroundActivitySessions: left.keptBackgroundActivitySessions + right.keptBackgroundActivitySessions)
        }
    }

    /// One app's session counts.
    public struct AppSessions: Hashable, Sendable {
        /// The app, `kind:key` with control characters escaped (`unit:chart.service`).
        public var app: String
        /// What it holds and keeps.
        public var counts: SessionCounts

        /// Creates an entry.
        public init(app: String, counts: SessionCounts) {
            self.app = app
            self.counts = counts
        }
    }

    /// A connected client and the app it is.
    public struct ConnectedApp: Hashable, Sendable {
        /// Its process ID.
        public var pid: Int
        /// Its user.
        public var uid: Int
        /// Its app, `kind:key` with control characters escaped (`unit:chart.service`).
        public var app: String

        /// Creates an entry.
        public init(pid: Int, uid: Int, app: String) {
            self.pid = pid
            self.uid = uid
            self.app = app
        }
    }

    /// The event loop's pending timers and registered descriptors.
    public struct EventLoopCounts: Hashable, Sendable {
        /// Timers pending.
        public var timers: Int
        /// Descriptors registered (the loop's own included).
        public var descriptors: Int

        /// Creates the counts.
        public init(timers: Int, descriptors: Int) {
            self.timers = timers
            self.descriptors = descriptors
        }
    }

    /// How many transitions a report carries at most.
    public static let recentTransitionLimit = 100

    /// One receiver power transition.
    public struct PowerTransition: Hashable, Sendable {
        /// When, in seconds since the Unix epoch (the daemon's wall clock).
        public var time: Double
        /// The state left.
        public var from: String
        /// The state entered.
        public var to: String
        /// Why.
        public var reason: String

        /// Creates a transition.
        public init(time: Double, from: String, to: String, reason: String) {
            self.time = time
            self.from = from
            self.to = to
            self.reason = reason
        }
    }

    /// Creates a report.
    public init(
        daemonVersion: String, uptime: Double, source: Source, receiverPowerState: String, receiverPowerSince: Double,
        lastLocation: Location? = nil, isStationary: Bool = false, clients: Int = 0, liveSubscriptions: Int = 0,
        pendingRequests: Int = 0, diagnostics: Diagnostics = Diagnostics(), powerLedger: [PowerLedgerEntry] = [],
        transitions: Int = 0, recentTransitions: [PowerTransition] = [], motionDetection: String = "accelerometer",
        eventLoop: EventLoopCounts? = nil
    ) {
        self.daemonVersion = daemonVersion
        self.uptime = uptime
        self.source = source
        self.receiverPowerState = receiverPowerState
        self.receiverPowerSince = receiverPowerSince
        self.lastLocation = lastLocation
        self.isStationary = isStationary
        self.clients = clients
        self.liveSubscriptions = liveSubscriptions
        self.pendingRequests = pendingRequests
        self.diagnostics = diagnostics
        self.powerLedger = powerLedger
        self.transitions = transitions
        self.recentTransitions = recentTransitions
        self.motionDetection = motionDetection
        self.eventLoop = eventLoop
    }
}
