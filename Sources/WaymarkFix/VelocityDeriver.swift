import WaymarkMath
import WaymarkLocation

/// Derives speed and course from successive positions for epochs that carry neither (GGA- or
/// GLL-only receivers, an epoch whose RMC and VTG were lost to a corrupted line).
///
/// The speed is the distance between this epoch's position and the previous epoch's, over
/// the time between them; the course is the bearing from the previous position. Their errors
/// follow from the positions' horizontal accuracies h1, h2 (``AccuracyModel``): the speed
/// error is √(h1² + h2²) / Δt; the course error is the angle that error subtends at the speed,
/// atan(speed error / speed), and there is no course when the speed is below its error (the
/// direction would be noise). Nothing is derived across a gap longer than
/// ``longestInterval``, across a time that does not move forward, from an epoch without a
/// position, or beyond ``highestSpeed``; a receiver's own speed or course is never replaced.
package struct VelocityDeriver: Sendable {
    /// The longest interval between two positions that a velocity is derived over, seconds: a
    /// few receiver cycles (1–5 Hz), short enough that the track between them is nearly straight.
    package static let longestInterval = 3.0

    /// The highest speed derived, m/s: 1,000 knots, above which GNSS receivers stop reporting
    /// (the export rules' "COCOM" limit). Faster, successive positions disagree by an error (a
    /// jump, a corrupted coordinate), not a movement.
    package static let highestSpeed = 1_000 * EpochAssembler.metresPerSecondPerKnot

    /// The accuracy model behind the positions' accuracies.
    package var model: AccuracyModel
    private var previous: (time: Timestamp, latitude: Double, longitude: Double, accuracy: Double)?

    /// Creates a deriver with no previous position.
    package init(model: AccuracyModel = AccuracyModel()) {
        self.model = model
    }

    /// Fills in `fix`'s speed and course if it carries neither and the previous epoch's
    /// position allows it, and remembers `fix`'s position for the next epoch.
    package mutating func complete(_ fix: inout Fix) {
        guard fix.hasPosition, let time = fix.time, let latitude = fix.latitude, let longitude = fix.longitude else {
            previous = nil
            return
        }
        let accuracy = model.horizontalAccuracy(of: fix)
        defer { previous = (time, latitude, longitude, accuracy) }
        guard fix.speed == nil, fix.course == nil, let previous,
            let interval = Self.seconds(from: previous.time, to: time),
            interval > 0, interval <= Self.longestInterval
        else { return }
        let (north, east) = Self.displacement(
            fromLatitude: previous.latitude, longitude: previous.longitude, toLatitude: latitude, longitude: longitude)
        let speed = (north * north + east * east).squareRoot() / interval
        guard speed <= Self.highestSpeed else { return }
        let speedError = (previous.accuracy * previous.accuracy + accuracy * accuracy).squareRoot() / interval
        fix.speed = speed
        if speed > speedError {
            let course = atan2(east, north) * 180 / .pi
            fix.course = course < 0 ? course + 360 : course
            fix.derivedVelocity = DerivedVelocity(speedError: speedError, courseError: atanDegrees(speedError / speed))
        } else {
            fix.derivedVelocity = DerivedVelocity(speedError: speedError, courseError: nil)
        }
    }

    /// Seconds from `start` to `end`, or `nil` if the difference does not fit.
    static func seconds(from start: Timestamp, to end: Timestamp) -> Double? {
        let (difference, overflow) = end.nanosecondsSinceEpoch.subtractingReportingOverflow(start.nanosecondsSinceEpoch)
        return overflow ? nil : Double(difference) / 1e9
    }

    /// North and east displacement in metres on the WGS 84 ellipsoid's local tangent plane
    /// (radii of curvature at the mean latitude), exact to well under a millimetre over the
    /// few hundred metres a vehicle covers in ``longestInterval``.
    static func displacement(
        fromLatitude latitude1: Double, longitude longitude1: Double, toLatitude latitude2: Double, longitude longitude2: Double
    ) -> (north: Double, east: Double) {
        let semiMajorAxis = 6_378_137.0
        let eccentricitySquared = 6.694_379_990_14e-3
        let meanLatitude = (latitude1 + latitude2) / 2 * .pi / 180
        let sinLatitude = sin(meanLatitude)
        let w = (1 - eccentricitySquared * sinLatitude * sinLatitude).squareRoot()
        let meridionalRadius = semiMajorAxis * (1 - eccentricitySquared) / (w * w * w)
        let primeVerticalRadius = semiMajorAxis / w
        var longitudeDifference = longitude2 - longitude1
        if longitudeDifference > 180 { longitudeDifference -= 360 }
        if longitudeDifference < -180 { longitudeDifference += 360 }
        let north = (latitude2 - latitude1) * .pi / 180 * meridionalRadius
        let east = longitudeDifference * .pi / 180 * primeVerticalRadius * cos(meanLatitude)
        return (north, east)
    }
}
