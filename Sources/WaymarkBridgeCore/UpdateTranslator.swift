package import WaymarkLocation

/// Turns live updates into OwnTracks messages: every update with a location becomes a retained
/// `location` message on the device's topic (so a subscriber that comes later sees the last
/// one at once); the update that brings the device to rest carries trigger `k` and the first
/// one moving again trigger `v`. An update without a location sends nothing and is kept as
/// the diagnostics the status reports. A location the same as the last one sent, with no
/// trigger, sends nothing: the retained message holds it already (a reduced-accuracy app gets
/// one cell for 20 minutes, on every update).
package struct UpdateTranslator: Sendable {
    /// The device the messages are for.
    package let device: OwnTracksDevice
    /// The diagnostics of the last update without a location (empty once locations flow).
    package private(set) var diagnostics: [String] = []
    private var isStationary = false
    private var lastSent: Location?

    /// A translator for `device`.
    package init(device: OwnTracksDevice) {
        self.device = device
    }

    /// The message for `update`, if it has one; `now` is the Unix time in seconds.
    package mutating func message(for update: LocationUpdate, now: Int64) -> OutgoingMessage? {
        guard let location = update.location else {
            diagnostics = update.diagnostics.names
            return nil
        }
        diagnostics = []
        let trigger: OwnTracksPayload.Trigger? =
            switch (isStationary, update.isStationary) {
            case (false, true): .becameStationary
            case (true, false): .resumedMoving
            default: nil
            }
        isStationary = update.isStationary
        guard trigger != nil || location != lastSent else { return nil }
        lastSent = location
        guard let payload = OwnTracksPayload.location(location, device: device, trigger: trigger, now: now) else {
            return nil
        }
        return OutgoingMessage(topic: device.topic, payload: payload, retain: true)
    }
}
