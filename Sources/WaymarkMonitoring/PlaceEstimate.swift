import WaymarkMath
import WaymarkLocation

/// The centre of a place from the fixes taken there, in constant memory.
///
/// Each fix is weighted by 1/accuracy² (inverse variance). Offsets are taken from the first
/// fix (longitude wrapped at ±180°), so the mean is right across the antimeridian. The
/// accuracy is the larger of the fixes' typical accuracy, √(n / Σw) (GNSS errors are correlated
/// over a stay of minutes, so averaging does not shrink them), and the weighted RMS scatter of
/// the fixes about the centre. Fixes whose accuracy cannot decide (``Accuracy``) are ignored.
struct PlaceEstimate: Sendable {
    /// A place's centre and its accuracy.
    struct Centre {
        var latitude: Double
        var longitude: Double
        var accuracy: Double
    }

    /// Metres per degree of latitude on a sphere of the Earth's mean radius.
    private static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// The finest accuracy a fix is credited with, metres (RTK's centimetre): a finer claim
    /// would let one fix outweigh all others without bound.
    private static let finestAccuracy = 0.01

    private var origin: (latitude: Double, longitude: Double)?
    private var count = 0.0
    private var weights = 0.0
    private var northSum = 0.0
    private var eastSum = 0.0
    private var squaredSum = 0.0

    /// Adds a fix.
    mutating func add(_ location: Location) {
        guard let accuracy = Accuracy.decisive(location), abs(location.latitude) <= 90 else { return }
        let origin = origin ?? (location.latitude, location.longitude)
        self.origin = origin
        let north = (location.latitude - origin.latitude) * Self.metresPerDegree
        let east = wrapped(location.longitude - origin.longitude) * Self.metresPerDegree * cos(origin.latitude * .pi / 180)
        let sigma = max(accuracy, Self.finestAccuracy)
        let weight = 1 / (sigma * sigma)
        count += 1
        weights += weight
        northSum += weight * north
        eastSum += weight * east
        squaredSum += weight * (north * north + east * east)
    }

    /// The centre, or `nil` before any usable fix.
    var estimate: Centre? {
        guard let origin, weights > 0 else { return nil }
        let north = northSum / weights
        let east = eastSum / weights
        let scatter = max(0, squaredSum / weights - north * north - east * east).squareRoot()
        let eastDegrees = origin.latitude.magnitude == 90 ? 0 : east / (Self.metresPerDegree * cos(origin.latitude * .pi / 180))
        return Centre(
            latitude: min(90, max(-90, origin.latitude + north / Self.metresPerDegree)),
            longitude: wrapped(origin.longitude + eastDegrees),
            accuracy: max((count / weights).squareRoot(), scatter))
    }
}

/// `degrees` brought into −180° ..< 180°.
private func wrapped(_ degrees: Double) -> Double {
    let turned = (degrees + 180).truncatingRemainder(dividingBy: 360)
    return (turned < 0 ? turned + 360 : turned) - 180
}
