/// One MQTT message for the broker: where, what, and whether the broker keeps it as the
/// topic's last value for subscribers that come later.
package struct OutgoingMessage: Hashable, Sendable {
    /// The topic, such as `owntracks/jane/pi`.
    package var topic: String
    /// The payload: OwnTracks JSON.
    package var payload: String
    /// Whether the broker retains it.
    package var retain: Bool

    /// A message for `topic`.
    package init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}
