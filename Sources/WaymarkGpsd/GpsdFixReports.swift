import WaymarkFix
package import WaymarkJSON
package import WaymarkLocation

/// The reports gpsd sends for each fix, made from a location as a client receives it (so
/// reduced accuracy has already been applied): TPV, SKY and GST.
package struct GpsdFixReports: Sendable {
    /// The location reported.
    package var location: Location
    /// The device path members carry.
    package var device: String

    package init(location: Location, device: String) {
        self.location = location
        self.device = device
    }

    /// Appends the TPV object (``TPVReport``).
    package func writeTPV(to buffer: inout JSONBuffer) {
        TPVReport(location: location, device: device).write(to: &buffer)
    }

    /// Appends the SKY object: the dilutions and satellite counts (Waymark keeps no
    /// per-satellite list, so there is no `satellites` array).
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
        buffer.endObject()
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
