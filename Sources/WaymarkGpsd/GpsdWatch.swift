package import WaymarkJSON
package import WaymarkTime

/// What a gpsd client has asked to be sent (gpsd's watcher policy), with gpsd's defaults:
/// nothing until it enables watching.
package struct GpsdWatch: Hashable, Sendable {
    package var enable = false
    package var json = false
    package var nmea = false
    package var raw = 0
    package var scaled = false
    package var split24 = false
    package var pps = false
    package var timing = false
    package var device: String?

    /// Not watching.
    package init() {}

    /// Applies a `?WATCH` object. Enabling without choosing an output asks for JSON, as
    /// gpsd does (`?WATCH={"enable":true}` is how many clients start).
    package mutating func apply(_ change: GpsdWatchChange) {
        enable = change.enable ?? enable
        json = change.json ?? json
        nmea = change.nmea ?? nmea
        raw = change.raw ?? raw
        scaled = change.scaled ?? scaled
        split24 = change.split24 ?? split24
        pps = change.pps ?? pps
        timing = change.timing ?? timing
        device = change.device ?? device
        if enable && !json && !nmea && raw == 0 { json = true }
    }

    /// Whether the client is to receive TPV, SKY and GST reports as fixes come.
    package var wantsReports: Bool { enable && json }

    /// Whether the client is to receive the receiver's sentences as read (`nmea`, or `raw`:
    /// an NMEA receiver's raw bytes are its sentences).
    package var wantsSentences: Bool { enable && (nmea || raw > 0) }

    /// Whether the client is to receive the report of a time sample from `source`
    /// (``GpsdTimeReport``), as gpsd sends them: PPS to every client watching JSON or PPS,
    /// TOFF only to those watching PPS.
    package func wantsTime(from source: TimeSampleSource) -> Bool {
        guard enable else { return false }
        switch source {
        case .pulse: return json || pps
        case .nmea: return pps
        }
    }

    /// Appends the WATCH reply.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "WATCH")
        buffer.member("enable", enable)
        buffer.member("json", json)
        buffer.member("nmea", nmea)
        buffer.member("raw", raw)
        buffer.member("scaled", scaled)
        buffer.member("timing", timing)
        buffer.member("split24", split24)
        buffer.member("pps", pps)
        if let device { buffer.member("device", text: device) }
        buffer.endObject()
    }
}
