package import WaymarkJSON
package import WaymarkLocation

/// One gpsd TPV object (member names, units and decimals as gpsd's JSON protocol prints
/// them), built from a ``Fix`` (``TPVEncoder``) or from a delivered location (the gpsd
/// endpoint), and written by ``write(to:)``: the one place TPV text is made.
///
/// Members: `class`, `device`, `time` (ISO 8601 UTC with milliseconds), `mode`,
/// `status` (when 2 or more, as gpsd prints it), `lat`, `lon`, `altHAE`, `altMSL`, `alt`
/// (gpsd's older name for `altMSL`, still read by its clients), `geoidSep`, `speed` (m/s),
/// `track` (degrees true), `magvar`, the 1-sigma errors `eph`, `epv` (metres), `eps` (m/s),
/// `epd` (degrees); plus Waymark's own `receiverMode` (the fix type of the receiver's GSA,
/// numbered as `mode`), `velocityDerived` (`true` when `speed` and `track` come from
/// successive positions), `hdop`, `vdop`, `pdop`, `uSat` and `nSat`. Absent values are left out.
package struct TPVReport: Hashable, Sendable {
    package var device: String?
    package var time: Timestamp?
    package var mode: FixMode = .noFix
    package var receiverMode: FixMode?
    package var quality: FixQuality = .unknown
    package var latitude: Double?
    package var longitude: Double?
    package var altitudeHAE: Double?
    package var altitudeMSL: Double?
    package var geoidSeparation: Double?
    package var speed: Double?
    package var track: Double?
    package var isVelocityDerived = false
    package var magneticVariation: Double?
    package var horizontalError: Double?
    package var verticalError: Double?
    package var speedError: Double?
    package var trackError: Double?
    package var dilution = DilutionOfPrecision()
    package var satellitesUsed: Int?
    package var satellitesInView: Int?

    /// An empty report (mode 1, no fix).
    package init() {}

    /// Appends the TPV object to `json`, without a line end.
    package func write(to json: inout JSONBuffer) {
        json.beginObject()
        json.member("class", "TPV")
        if let device { json.member("device", text: device) }
        if let time { json.timeMember("time", time) }
        json.member("mode", mode.rawValue)
        if let receiverMode { json.member("receiverMode", receiverMode.rawValue) }
        if quality.rawValue >= 2 { json.member("status", quality.rawValue) }
        if mode >= .twoDimensional {
            json.member("lat", latitude, decimals: 9)
            json.member("lon", longitude, decimals: 9)
            if mode == .threeDimensional {
                json.member("altHAE", altitudeHAE, decimals: 4)
                json.member("altMSL", altitudeMSL, decimals: 4)
                json.member("alt", altitudeMSL, decimals: 4)
            }
            json.member("geoidSep", geoidSeparation, decimals: 3)
            json.member("speed", speed, decimals: 3)
            json.member("track", track, decimals: 4)
            if isVelocityDerived { json.member("velocityDerived", true) }
            json.member("magvar", magneticVariation, decimals: 1)
            json.member("eph", horizontalError, decimals: 3)
            json.member("epv", verticalError, decimals: 3)
            json.member("eps", speedError, decimals: 3)
            json.member("epd", trackError, decimals: 2)
        }
        json.member("hdop", dilution.horizontal, decimals: 2)
        json.member("vdop", dilution.vertical, decimals: 2)
        json.member("pdop", dilution.position, decimals: 2)
        if let satellitesUsed { json.member("uSat", satellitesUsed) }
        if let satellitesInView { json.member("nSat", satellitesInView) }
        json.endObject()
    }
}

extension TPVReport {
    /// The report of a fix, with the errors of `model`.
    package init(fix: Fix, model: AccuracyModel) {
        time = fix.time
        mode = fix.mode
        receiverMode = fix.receiverMode
        quality = fix.quality
        latitude = fix.latitude
        longitude = fix.longitude
        altitudeHAE = fix.altitudeHAE
        altitudeMSL = fix.altitudeMSL
        geoidSeparation = fix.geoidSeparation
        speed = fix.speed
        track = fix.course
        isVelocityDerived = fix.derivedVelocity != nil
        magneticVariation = fix.magneticVariation
        horizontalError = Self.known(model.horizontalAccuracy(of: fix))
        verticalError = Self.known(model.verticalAccuracy(of: fix))
        speedError = Self.known(model.speedAccuracy(of: fix))
        trackError = Self.known(model.courseAccuracy(of: fix))
        dilution = DilutionOfPrecision(horizontal: fix.hdop, vertical: fix.vdop, position: fix.pdop)
        satellitesUsed = fix.satellitesUsed ?? Self.nonZero(fix.satellites.totalUsed)
        satellitesInView = Self.nonZero(fix.satellites.totalInView)
    }

    /// The report of a location as a client receives it (Core Location's negative
    /// "unknown" values left out; altitudes only with a vertical accuracy).
    package init(location: Location, device: String?) {
        self.device = device
        time = location.timestamp
        mode = location.mode
        receiverMode = location.receiverMode
        quality = location.quality
        latitude = location.latitude
        longitude = location.longitude
        if location.verticalAccuracy >= 0 {
            altitudeHAE = location.ellipsoidalAltitude
            altitudeMSL = location.altitude
            geoidSeparation = location.ellipsoidalAltitude - location.altitude
        }
        speed = Self.known(location.speed)
        track = Self.known(location.course)
        isVelocityDerived = location.isVelocityDerived && speed != nil
        horizontalError = Self.known(location.horizontalAccuracy)
        verticalError = Self.known(location.verticalAccuracy)
        speedError = Self.known(location.speedAccuracy)
        trackError = Self.known(location.courseAccuracy)
        dilution = location.dilution
        satellitesUsed = Self.nonZero(location.satellites.totalUsed)
        satellitesInView = Self.nonZero(location.satellites.totalInView)
    }

    /// `value` when it is known (not negative), as Core Location marks unknown values.
    static func known(_ value: Double) -> Double? { value >= 0 ? value : nil }
    static func nonZero(_ value: Int) -> Int? { value > 0 ? value : nil }
}

extension JSONBuffer {
    /// Writes a time member as gpsd prints it (ISO 8601 UTC with milliseconds).
    package mutating func timeMember(_ name: StaticString, _ time: Timestamp) {
        key(name)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        time.appendISO8601(to: &text)
        text.append(UInt8(ascii: "\""))
        raw(text)
    }
}
