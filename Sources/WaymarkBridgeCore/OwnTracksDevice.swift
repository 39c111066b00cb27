/// One device as OwnTracks names it: `owntracks/<user>/<device>` and its tracker ID. The
/// topics are those the OwnTracks apps publish to (owntracks.org/booklet/tech/json, "Topics").
public struct OwnTracksDevice: Hashable, Sendable {
    /// The user, the topic's second level.
    public var user: String
    /// The device, the topic's third level.
    public var device: String
    /// The tracker ID (`tid`), the initials a map shows.
    public var trackerID: String

    /// A device; `user` and `device` must be valid topic levels (WaymarkBoard checks them).
    public init(user: String, device: String, trackerID: String) {
        self.user = user
        self.device = device
        self.trackerID = trackerID
    }

    /// Where locations and the last will go: `owntracks/<user>/<device>`.
    public var topic: String { "owntracks/\(user)/\(device)" }

    /// Where status goes: `owntracks/<user>/<device>/status`.
    public var statusTopic: String { topic + "/status" }
}
