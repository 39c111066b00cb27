package import WaymarkLocation

/// A circle on the ground (`CLMonitor.CircularGeographicCondition`), validated: finite
/// coordinates on the globe and a radius in ``radiusRange``.
package struct CircularRegion: Hashable, Sendable {
    /// The radii a condition may have, metres. Below 1 m no fix can tell inside from outside;
    /// beyond 100 km a region is no longer a place (and the flat-border margin used by the
    /// scheduler stays accurate to well under 1 %).
    package static let radiusRange = 1.0...100_000.0

    /// The centre's latitude, degrees.
    package let latitude: Double
    /// The centre's longitude, degrees.
    package let longitude: Double
    /// The radius, metres.
    package let radius: Double
    /// The centre as a location, for `Location.distance(from:)`.
    private let center: Location

    /// The region, or `nil` for a centre off the globe or a radius outside ``radiusRange``
    /// (NaN included).
    package init?(latitude: Double, longitude: Double, radius: Double) {
        guard (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude),
            Self.radiusRange.contains(radius), let center = Location(point: (latitude, longitude))
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.center = center
    }

    /// The distance in metres from the region's border to `location`: negative inside.
    package func signedDistanceToBorder(of location: Location) -> Double {
        location.distance(from: center) - radius
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude && lhs.radius == rhs.radius
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(radius)
    }
}

extension Location {
    /// A bare position (no time, no accuracy) for measuring distances to it.
    fileprivate init?(point: (latitude: Double, longitude: Double)) {
        guard point.latitude.isFinite, point.longitude.isFinite else { return nil }
        self.init(
            latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: -1,
            timestamp: Timestamp(nanosecondsSinceEpoch: 0))
    }
}
