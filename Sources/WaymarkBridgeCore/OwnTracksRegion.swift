/// A circular region as OwnTracks keeps it (its `waypoint`): the name (`desc`) that
/// transitions and Home Assistant's zones go by, the centre, the radius and when the bridge
/// first watched it (`tst` in a waypoint, `wtst` in a transition).
package struct OwnTracksRegion: Hashable, Sendable {
    /// The name: the monitor condition's identifier.
    package var name: String
    /// The centre's latitude, degrees.
    package var latitude: Double
    /// The centre's longitude, degrees.
    package var longitude: Double
    /// The radius, metres.
    package var radius: Double
    /// When the bridge first watched it, Unix seconds.
    package var created: Int64

    /// A region.
    package init(name: String, latitude: Double, longitude: Double, radius: Double, created: Int64) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.created = created
    }
}
