import WaymarkMath

extension Location {
    /// The distance in metres to `other` along the surface of the WGS 84 ellipsoid, as
    /// Core Location's `distance(from:)`; altitudes are ignored.
    ///
    /// Vincenty's inverse formula (accurate to well under a millimetre); for nearly antipodal
    /// points, where it does not converge, a great-circle distance on a sphere of the
    /// ellipsoid's mean radius (within 0.5 %).
    public func distance(from other: Location) -> Double {
        vincentyDistance(latitude, longitude, other.latitude, other.longitude)
            ?? greatCircleDistance(latitude, longitude, other.latitude, other.longitude)
    }
}

private let semiMajorAxis = 6_378_137.0
private let flattening = 1 / 298.257_223_563
private let semiMinorAxis = semiMajorAxis * (1 - flattening)
private let meanRadius = (2 * semiMajorAxis + semiMinorAxis) / 3

private func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Vincenty's inverse solution on the WGS 84 ellipsoid, or `nil` if it does not converge.
private func vincentyDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double? {
    let reduced1 = atan((1 - flattening) * tan(radians(latitude1)))
    let reduced2 = atan((1 - flattening) * tan(radians(latitude2)))
    let (sin1, cos1, sin2, cos2) = (sin(reduced1), cos(reduced1), sin(reduced2), cos(reduced2))
    let longitudeDifference = radians(longitude2 - longitude1)
    var lambda = longitudeDifference
    for _ in 0..<200 {
        let (sinLambda, cosLambda) = (sin(lambda), cos(lambda))
        let sinSigma = ((cos2 * sinLambda) * (cos2 * sinLambda)
            + (cos1 * sin2 - sin1 * cos2 * cosLambda) * (cos1 * sin2 - sin1 * cos2 * cosLambda)).squareRoot()
        if sinSigma == 0 { return 0 }
        let cosSigma = sin1 * sin2 + cos1 * cos2 * cosLambda
        let sigma = atan2(sinSigma, cosSigma)
        let sinAlpha = cos1 * cos2 * sinLambda / sinSigma
        let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sin1 * sin2 / cosSquaredAlpha
        let c = flattening / 16 * cosSquaredAlpha * (4 + flattening * (4 - 3 * cosSquaredAlpha))
        let previous = lambda
        lambda = longitudeDifference + (1 - c) * flattening * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        if abs(lambda - previous) < 1e-12 {
            let uSquared = cosSquaredAlpha * (semiMajorAxis * semiMajorAxis - semiMinorAxis * semiMinorAxis)
                / (semiMinorAxis * semiMinorAxis)
            let a = 1 + uSquared / 16_384 * (4_096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
            let b = uSquared / 1_024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
            let deltaSigma = b * sinSigma * (cos2SigmaM + b / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                - b / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
            return semiMinorAxis * a * (sigma - deltaSigma)
        }
    }
    return nil
}

/// The haversine distance on a sphere of the ellipsoid's mean radius.
private func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let halfLatitude = sin(radians(latitude2 - latitude1) / 2)
    let halfLongitude = sin(radians(longitude2 - longitude1) / 2)
    let h = halfLatitude * halfLatitude + cos(radians(latitude1)) * cos(radians(latitude2)) * halfLongitude * halfLongitude
    return 2 * meanRadius * asin(min(1, h.squareRoot()))
}
