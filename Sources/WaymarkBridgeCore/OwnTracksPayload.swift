import WaymarkJSON
package import WaymarkLocation

/// OwnTracks JSON payloads (owntracks.org/booklet/tech/json): `_type` `location`, `lwt`,
/// `status`, `transition` and `waypoints`. Numbers OwnTracks defines as integers are written as integers; values the
/// location does not have (a negative accuracy, speed or course, as in Core Location) are
/// left out, as the apps leave them out.
package enum OwnTracksPayload {
    /// Why a location report was sent (`t`): the booklet's Greenwich triggers for the two
    /// stationary transitions, nothing for an ordinary update ("a missing `t` element also
    /// indicates an automatic location update").
    package enum Trigger: String, Hashable, Sendable {
        /// `k`: the device came to rest (the update with ``LocationUpdate/isStationary``).
        case becameStationary = "k"
        /// `v`: the device moves again after resting.
        case resumedMoving = "v"
    }

    /// The `location` payload for `location`, or `nil` when its coordinates or time are not
    /// a place on Earth after 1970 (nothing from the socket is trusted).
    ///
    /// `acc` is rounded up and at least 1 (Home Assistant ignores an accuracy of 0), `vel` is
    /// in km/h, `cog` in whole degrees 0–359, `tst` the fix's time and `created_at` `now`,
    /// both in Unix seconds.
    package static func location(
        _ location: Location, device: OwnTracksDevice, trigger: Trigger?, now: Int64
    ) -> String? {
        guard isOnEarth(location.latitude, location.longitude), location.timestamp.nanosecondsSinceEpoch >= 0 else { return nil }
        var json = JSONBuffer(capacity: 256)
        json.beginObject()
        json.member("_type", "location")
        json.member("lat", location.latitude, decimals: 7)
        json.member("lon", location.longitude, decimals: 7)
        if location.horizontalAccuracy >= 0, let accuracy = wholeNumber(location.horizontalAccuracy.rounded(.up)) {
            json.member("acc", max(accuracy, 1))
        }
        if location.verticalAccuracy > 0, let altitude = wholeNumber(location.altitude.rounded()),
            let verticalAccuracy = wholeNumber(location.verticalAccuracy.rounded(.up))
        {
            json.member("alt", altitude)
            json.member("vac", max(verticalAccuracy, 1))
        }
        if location.speed >= 0, let speed = wholeNumber((location.speed * 3.6).rounded()) {
            json.member("vel", speed)
        }
        if location.course >= 0, let course = wholeNumber(location.course.rounded()) {
            json.member("cog", course % 360)
        }
        json.member("tst", Int(location.timestamp.nanosecondsSinceEpoch / 1_000_000_000))
        json.member("created_at", Int(now))
        json.member("tid", text: device.trackerID)
        if let trigger { json.member("t", text: trigger.rawValue) }
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `event` of a `transition`.
    package enum Transition: String, Hashable, Sendable {
        /// The device entered the region.
        case enter
        /// The device left it.
        case leave
    }

    /// The `transition` payload: `event` and `desc` the region's name, `lat`/`lon`/`acc` the
    /// deciding fix's (or, when the bridge did not receive that fix, the region's centre and
    /// radius: the device was within the radius of it, or at its border), `tst` the event's
    /// time, `wtst` the region's creation, `rid` its ID, `t` `c` (a circular region).
    package static func transition(
        _ transition: Transition, region: OwnTracksRegion, fix: Location?, date: Timestamp, device: OwnTracksDevice
    ) -> String {
        let fix = fix.flatMap { isOnEarth($0.latitude, $0.longitude) ? $0 : nil }
        var json = JSONBuffer(capacity: 256)
        json.beginObject()
        json.member("_type", "transition")
        json.member("wtst", Int(region.created))
        json.member("lat", fix?.latitude ?? region.latitude, decimals: 7)
        json.member("lon", fix?.longitude ?? region.longitude, decimals: 7)
        json.member("tst", Int(date.nanosecondsSinceEpoch / 1_000_000_000))
        let accuracy = fix.map(\.horizontalAccuracy).flatMap { $0 >= 0 ? $0 : nil } ?? region.radius
        if let accuracy = wholeNumber(accuracy.rounded(.up)) { json.member("acc", max(accuracy, 1)) }
        json.member("tid", text: device.trackerID)
        json.member("event", text: transition.rawValue)
        json.member("desc", text: region.name)
        json.member("rid", text: region.id)
        json.member("t", "c")
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `waypoints` payload: each region as a `waypoint` (`desc`, `lat`, `lon`, `rad` in
    /// whole metres, `tst` its creation, `rid` its ID), as the apps export their configured regions.
    package static func waypoints(_ regions: [OwnTracksRegion]) -> String {
        var json = JSONBuffer(capacity: 64 + 128 * regions.count)
        json.beginObject()
        json.member("_type", "waypoints")
        json.key("waypoints")
        json.beginArray()
        for region in regions {
            json.beginObject()
            json.member("_type", "waypoint")
            json.member("desc", text: region.name)
            json.member("lat", region.latitude, decimals: 7)
            json.member("lon", region.longitude, decimals: 7)
            json.member("rad", wholeNumber(region.radius.rounded()) ?? 0)
            json.member("tst", Int(region.created))
            json.member("rid", text: region.id)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The last will: `{"_type":"lwt","tst":…}`, `tst` the time the bridge connected.
    package static func lastWill(connectedAt: Int64) -> String {
        var json = JSONBuffer(capacity: 32)
        json.beginObject()
        json.member("_type", "lwt")
        json.member("tst", Int(connectedAt))
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The bridge's status, as the apps put their own under `iOS` or `android`:
    /// `{"_type":"status","waymark":{"online":…,"queued":…,"dropped":…,"diagnostics":[…]},"tst":…}`.
    /// `dropped` counts the messages the outbox ever dropped for its bound, `diagnostics`
    /// names why the daemon last sent no location (`docs/semantics.md`).
    package static func status(_ status: BridgeStatus, now: Int64) -> String {
        var json = JSONBuffer(capacity: 128)
        json.beginObject()
        json.member("_type", "status")
        json.key("waymark")
        json.beginObject()
        json.member("online", status.isOnline)
        json.member("queued", status.queued)
        json.member("dropped", Int(clamping: status.dropped))
        json.key("diagnostics")
        json.beginArray()
        for name in status.diagnostics { json.string(name) }
        json.endArray()
        json.endObject()
        json.member("tst", Int(now))
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Whether (`latitude`, `longitude`) is a place on Earth.
    private static func isOnEarth(_ latitude: Double, _ longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// `value` as an integer when it is one a JSON reader takes exactly (|value| < 2^53).
    private static func wholeNumber(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }
}

/// What the bridge's status message reports.
package struct BridgeStatus: Hashable, Sendable {
    /// Whether the bridge is connected (false in the message it sends before it leaves).
    package var isOnline: Bool
    /// Messages waiting in the outbox.
    package var queued: Int
    /// Messages the outbox dropped, oldest first, since it was created.
    package var dropped: Int64
    /// The names of the diagnostics of the last update without a location.
    package var diagnostics: [String]

    /// A status.
    package init(isOnline: Bool, queued: Int, dropped: Int64, diagnostics: [String]) {
        self.isOnline = isOnline
        self.queued = queued
        self.dropped = dropped
        self.diagnostics = diagnostics
    }
}
