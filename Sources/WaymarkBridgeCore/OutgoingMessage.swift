/// One MQTT message for the broker: where, what, and whether the broker keeps it as the
/// topic's last value for subscribers that come later.
public struct OutgoingMessage: Hashable, Sendable {
    /// The topic, such as `owntracks/jane/pi`.
    public var topic: String
    /// The payload: OwnTracks JSON.
    public var payload: String
    /// Whether the broker retains it.
    public var retain: Bool

    /// A message for `topic`.
    public init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}
