package import WaymarkClock

/// The power states of a GNSS receiver, each with its own current draw.
package enum ReceiverPowerState: String, Hashable, Sendable, CaseIterable {
    /// No supply at all: everything is forgotten (the next start is cold).
    case off
    /// Main supply off, backup supply (V_BCKP, VBAT) kept: RTC and ephemeris survive.
    case backup
    /// Navigation stopped with the main supply on (PMTK161, STANDBY pin): memory kept.
    case standby
    /// Powered and searching for satellites: no fix yet.
    case acquiring
    /// Powered with a fix, one epoch a second.
    case tracking

    /// Whether the receiver is navigating (acquiring or tracking).
    package var isOn: Bool { self == .acquiring || self == .tracking }
}

/// How a receiver starts, given what it remembers.
package enum StartKind: String, Hashable, Sendable {
    /// Time, position and a valid ephemeris remembered: a fix in about a second.
    case hot
    /// The ephemeris expired but the receiver's own orbit prediction (``OrbitPrediction``) is
    /// valid: a fix in about the hot start's time, less accurate until the ephemeris is decoded.
    case predicted
    /// Time and almanac remembered but the ephemeris expired: it must be downloaded again.
    case warm
    /// Nothing remembered.
    case cold
}

/// One power-on of the receiver: when, how it started, and when the first fix came.
package struct ReceiverStart: Hashable, Sendable {
    /// When the receiver was powered on (or woken).
    package var instant: Instant
    /// The kind of start.
    package var kind: StartKind
    /// The measurement instant of the first epoch with a fix (on the receiver's measurement grid).
    package var firstFix: Instant

    /// Creates a record of a start.
    package init(instant: Instant, kind: StartKind, firstFix: Instant) {
        self.instant = instant
        self.kind = kind
        self.firstFix = firstFix
    }

    /// Time to first fix.
    package var timeToFirstFix: Duration { firstFix - instant }
}
