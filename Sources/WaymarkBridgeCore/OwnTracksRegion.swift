/// A circular region as OwnTracks keeps it (its `waypoint`): the name (`desc`) that
/// transitions and Home Assistant's zones go by, the centre, the radius and when the bridge
/// first watched it (`tst` in a waypoint, `wtst` in a transition), and its `rid`.
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

    /// The region ID (`rid` in a waypoint and its transitions): six hex digits, as the apps
    /// write it, of a 32-bit FNV-1a hash of every member, so that the same region keeps its ID
    /// across restarts and a moved or renamed one gets another.
    package var id: String {
        var hash: UInt32 = 0x811c_9dc5
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        }
        mix(name.utf8)
        for value in [latitude.bitPattern, longitude.bitPattern, radius.bitPattern, UInt64(bitPattern: created)] {
            mix((0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
        }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<6).map { digits[Int(hash >> (28 - $0 * 4)) & 0xf] }, as: UTF8.self)
    }
}
