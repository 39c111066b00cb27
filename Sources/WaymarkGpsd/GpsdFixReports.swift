package import WaymarkFix
package import WaymarkJSON
package import WaymarkLocation

/// The reports gpsd sends for each fix, made from a location as a client receives it (so
/// reduced accuracy has already been applied): TPV, SKY and GST.
package struct GpsdFixReports: Sendable {
    /// The location reported.
    package var location: Location
    /// The device path members carry.
    package var device: String
    /// The satellites in view, for a client that may see them (its location came unreduced:
    /// their azimuths and elevations at a known time place the receiver); `nil` otherwise.
    package var sky: SkyView?

    package init(location: Location, device: String, sky: SkyView? = nil) {
        self.location = location
        self.device = device
        self.sky = sky
    }

    /// Appends the TPV object (``TPVReport``).
    package func writeTPV(to buffer: inout JSONBuffer) {
        TPVReport(location: location, device: device).write(to: &buffer)
    }

    /// Appends the SKY object: the dilutions, the satellite counts and, with a ``sky`` that
    /// has satellites, the `satellites` array.
    package func writeSKY(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "SKY")
        buffer.member("device", text: device)
        buffer.timeMember("time", location.timestamp)
        buffer.member("hdop", location.dilution.horizontal, decimals: 2)
        buffer.member("pdop", location.dilution.position, decimals: 2)
        buffer.member("vdop", location.dilution.vertical, decimals: 2)
        buffer.member("nSat", location.satellites.totalInView)
        buffer.member("uSat", location.satellites.totalUsed)
        if let sky, !sky.satellites.isEmpty {
            buffer.key("satellites")
            buffer.beginArray()
            for satellite in sky.satellites { Self.write(satellite, used: sky.isUsed(satellite), to: &buffer) }
            buffer.endArray()
        }
        buffer.endObject()
    }

    /// One satellite signal as gpsd 3.22 writes it: `PRN`, `el`, `az`, `ss` (each left out
    /// when unknown, one decimal), `used`, `gnssid`, `svid`, and `sigid` when not 0.
    private static func write(_ satellite: SkySatellite, used: Bool, to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("PRN", satellite.identity.prn)
        buffer.member("el", satellite.elevation.map { Double($0) }, decimals: 1)
        buffer.member("az", satellite.azimuth.map { Double($0) }, decimals: 1)
        buffer.member("ss", satellite.signalStrength.map { Double($0) }, decimals: 1)
        buffer.member("used", used)
        // Constellation's raw values are u-blox's gnssId, which gpsd uses.
        buffer.member("gnssid", satellite.identity.constellation.rawValue)
        buffer.member("svid", satellite.identity.number)
        let signal = signalID(nmea: satellite.signal)
        if signal != 0 { buffer.member("sigid", signal) }
        buffer.endObject()
    }

    /// gpsd 3.22's `sigid` (u-blox's signal id) for an NMEA 4.10 signal id, as its NMEA
    /// driver converts it: 2 (Galileo E5b) 5, 3 (GLONASS L2, BeiDou B2I) 2, 5 (GPS L2 CM) 4,
    /// 6 (GPS L2 CL) 3, every other signal (each system's first, L1 C/A, E1, B1I) 0.
    static func signalID(nmea: Int) -> Int {
        switch nmea {
        case 2: 5
        case 3: 2
        case 5: 4
        case 6: 3
        default: 0
        }
    }

    /// Whether there is a GST to send: a known horizontal accuracy.
    package var hasGST: Bool { location.horizontalAccuracy >= 0 }

    /// Appends the GST object: 1-sigma errors of latitude and longitude in metres, each the
    /// horizontal accuracy (their root sum of squares, the 2D RMS) over √2 for a circular
    /// error, and of the altitude when known.
    package func writeGST(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "GST")
        buffer.member("device", text: device)
        buffer.timeMember("time", location.timestamp)
        let axis = location.horizontalAccuracy / 2.0.squareRoot()
        buffer.member("lat", axis, decimals: 3)
        buffer.member("lon", axis, decimals: 3)
        if location.verticalAccuracy >= 0 { buffer.member("alt", location.verticalAccuracy, decimals: 3) }
        buffer.endObject()
    }
}
