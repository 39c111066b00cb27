/// A stay at a place (`CLVisit`): reported once on arrival (no departure yet) and once more on
/// departure.
package struct Visit: Hashable, Sendable {
    /// The place's centre: the accuracy-weighted mean of the fixes taken there, degrees.
    package var latitude: Double
    /// The place's centre's longitude, degrees.
    package var longitude: Double
    /// The radius, metres, within which the place's centre lies (WaymarkMonitoring's `PlaceEstimate`).
    package var horizontalAccuracy: Double
    /// When the device came to rest there.
    package var arrivalDate: Timestamp
    /// When it left; `nil` in the arrival report (Core Location's `distantFuture`).
    package var departureDate: Timestamp?

    package init(latitude: Double, longitude: Double, horizontalAccuracy: Double, arrivalDate: Timestamp, departureDate: Timestamp?) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.arrivalDate = arrivalDate
        self.departureDate = departureDate
    }
}
