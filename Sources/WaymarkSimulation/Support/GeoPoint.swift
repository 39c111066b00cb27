/// A position on the WGS 84 ellipsoid: latitude and longitude in degrees, altitude above
/// mean sea level in metres.
package struct GeoPoint: Hashable, Sendable {
    /// Latitude in degrees, north positive.
    package var latitude: Double
    /// Longitude in degrees, east positive, in [-180, 180).
    package var longitude: Double
    /// Altitude above mean sea level, metres.
    package var altitude: Double

    /// Creates a position.
    package init(latitude: Double, longitude: Double, altitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Mean Earth radius, metres (a sphere is accurate enough for a simulated track).
    static let earthRadius = 6_371_008.8
    private static let degreesPerRadian = 180 / Double.pi

    /// The point `distance` metres away along a constant `heading` (degrees from north),
    /// on a local rhumb line: exact enough for the kilometres of a scenario segment, and
    /// cheap (no inverse trigonometry). Latitude is held inside ±89.9°.
    func moved(distance: Double, heading: Double) -> GeoPoint {
        let north = distance * Trigonometry.cosine(degrees: heading)
        let east = distance * Trigonometry.sine(degrees: heading)
        return offset(north: north, east: east)
    }

    /// The point `north` and `east` metres away (local flat-earth approximation at the mean
    /// latitude of the two points).
    func offset(north: Double, east: Double, up: Double = 0) -> GeoPoint {
        let newLatitude = min(89.9, max(-89.9, latitude + north / Self.earthRadius * Self.degreesPerRadian))
        let meanLatitude = (latitude + newLatitude) / 2
        let metresPerRadianEast = Self.earthRadius * Trigonometry.cosine(degrees: meanLatitude)
        var newLongitude = longitude + east / metresPerRadianEast * Self.degreesPerRadian
        newLongitude -= 360 * ((newLongitude + 180) / 360).rounded(.down)
        return GeoPoint(latitude: newLatitude, longitude: newLongitude, altitude: altitude + up)
    }
}
