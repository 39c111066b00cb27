/// One device as OwnTracks names it: `owntracks/<user>/<device>` and its tracker ID. The
/// topics are those the OwnTracks apps publish to (owntracks.org/booklet/tech/json, "Topics").
package struct OwnTracksDevice: Hashable, Sendable {
    /// The user, the topic's second level.
    package var user: String
    /// The device, the topic's third level.
    package var device: String
    /// The tracker ID (`tid`), the initials a map shows.
    package var trackerID: String

    /// A device; `user` and `device` must be valid topic levels (WaymarkBoard checks them).
    package init(user: String, device: String, trackerID: String) {
        self.user = user
        self.device = device
        self.trackerID = trackerID
    }

    /// Where locations and the last will go: `owntracks/<user>/<device>`.
    package var topic: String { "owntracks/\(user)/\(device)" }

    /// Where status goes: `owntracks/<user>/<device>/status`.
    package var statusTopic: String { topic + "/status" }

    /// Where transitions go: `owntracks/<user>/<device>/event`.
    package var eventTopic: String { topic + "/event" }

    /// Where the regions go: `owntracks/<user>/<device>/waypoints`.
    package var waypointsTopic: String { topic + "/waypoints" }
}
