package import WaymarkJSON
import WaymarkLocation

/// Writes fixes as gpsd TPV objects (member names and units as gpsd's JSON protocol),
/// one per line, so tools that read gpsd's output can read Waymark's.
///
/// Members: `class`, `time` (ISO 8601 UTC with milliseconds), `mode`, `status` (when 2 or
/// more, as gpsd prints it), `lat`, `lon`, `altHAE`, `altMSL`, `geoidSep`, `speed` (m/s),
/// `track` (degrees true), `magvar`, and the error estimates of Waymark's
/// ``AccuracyModel``: `eph`, `epv` (metres), `eps` (m/s), `epd` (degrees); plus Waymark's
/// own `receiverMode` (the fix type the receiver printed in its GSA, numbered as `mode`),
/// `velocityDerived` (`true` when `speed` and `track` come from successive positions, see
/// ``VelocityDeriver``), `hdop`, `vdop`, `pdop`, `uSat` and `nSat` (satellites used and in view).
package struct TPVEncoder: Sendable {
    /// The accuracy model behind the error estimates.
    package var model: AccuracyModel

    /// Creates an encoder.
    package init(model: AccuracyModel = AccuracyModel()) {
        self.model = model
    }

    /// Appends one TPV object and a newline to `json`.
    package func encode(_ fix: Fix, into json: inout JSONBuffer) {
        json.beginObject()
        json.member("class", "TPV")
        if let time = fix.time {
            json.key("time")
            var text: [UInt8] = [UInt8(ascii: "\"")]
            time.appendISO8601(to: &text)
            text.append(UInt8(ascii: "\""))
            json.raw(text)
        }
        json.member("mode", fix.mode.rawValue)
        if let receiverMode = fix.receiverMode { json.member("receiverMode", receiverMode.rawValue) }
        if fix.quality.rawValue >= 2 { json.member("status", fix.quality.rawValue) }
        if fix.mode >= .twoDimensional {
            json.member("lat", fix.latitude, decimals: 9)
            json.member("lon", fix.longitude, decimals: 9)
            if fix.mode == .threeDimensional {
                json.member("altHAE", fix.altitudeHAE, decimals: 4)
                json.member("altMSL", fix.altitudeMSL, decimals: 4)
            }
            json.member("geoidSep", fix.geoidSeparation, decimals: 3)
            json.member("speed", fix.speed, decimals: 3)
            json.member("track", fix.course, decimals: 4)
            if fix.derivedVelocity != nil { json.member("velocityDerived", true) }
            json.member("magvar", fix.magneticVariation, decimals: 1)
            json.member("eph", positive(model.horizontalAccuracy(of: fix)), decimals: 3)
            json.member("epv", positive(model.verticalAccuracy(of: fix)), decimals: 3)
            json.member("eps", positive(model.speedAccuracy(of: fix)), decimals: 3)
            json.member("epd", positive(model.courseAccuracy(of: fix)), decimals: 2)
        }
        json.member("hdop", fix.hdop, decimals: 2)
        json.member("vdop", fix.vdop, decimals: 2)
        json.member("pdop", fix.pdop, decimals: 2)
        if let used = fix.satellitesUsed ?? nonZero(fix.satellites.totalUsed) { json.member("uSat", used) }
        if let inView = nonZero(fix.satellites.totalInView) { json.member("nSat", inView) }
        json.endObject()
        json.newline()
    }

    private func positive(_ value: Double) -> Double? { value >= 0 ? value : nil }
    private func nonZero(_ value: Int) -> Int? { value > 0 ? value : nil }
}
