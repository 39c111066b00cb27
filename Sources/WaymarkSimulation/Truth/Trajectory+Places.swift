import WaymarkClock
package import WaymarkLocation

extension Trajectory {
    /// The places the device stays at: the middle of each still stretch, the first of those
    /// within `separation` metres of one another standing for all of them, in order.
    package func stayPlaces(separation: Double) -> [Location] {
        var places: [Location] = []
        var from = Instant.zero
        for moving in movingIntervals + [end..<end] {
            if moving.lowerBound > from {
                let position = truth(at: from + (moving.lowerBound - from) / 2).position
                let place = Location(latitude: position.latitude, longitude: position.longitude, horizontalAccuracy: 1, timestamp: utc(at: from))
                if !places.contains(where: { $0.distance(from: place) < separation }) { places.append(place) }
            }
            from = max(from, moving.upperBound)
        }
        return places
    }
}
