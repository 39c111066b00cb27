import WaymarkLocation
/// Turns what a receiver reports into Core Location style accuracies (1-sigma, metres).
///
/// * With GST, the receiver's own error estimates are used: horizontal accuracy is the
///   root sum of squares of the latitude and longitude errors (the 2D RMS radius), vertical
///   accuracy the altitude error.
/// * Without GST, accuracy is dilution of precision times a user equivalent range error
///   (UERE) that depends on how the fix was made: horizontal = HDOP × UERE, vertical =
///   VDOP × UERE (VDOP from √(PDOP² − HDOP²) when only PDOP and HDOP are known). A valid
///   fix with no DOP at all is given HDOP 2 and VDOP 3, a deliberately pessimistic guess.
/// * Speed accuracy is HDOP × a Doppler velocity error (0.1 m/s autonomous, 0.05 m/s with
///   corrections); course accuracy is the angle that speed error subtends at the current
///   speed, `atan(speedAccuracy / speed)`, up to 180°.
/// * A speed and course derived from two positions (``DerivedVelocity``) carry the errors
///   propagated from those positions' accuracies instead.
///
/// Unknown values are negative, as in Core Location.
package struct AccuracyModel: Hashable, Sendable {
    /// UERE for autonomous fixes, metres.
    package var autonomousUERE = 4.0
    /// UERE for differential (SBAS, DGPS) fixes, metres.
    package var differentialUERE = 1.5
    /// UERE for RTK float solutions, metres.
    package var rtkFloatUERE = 0.3
    /// UERE for RTK fixed solutions, metres.
    package var rtkFixedUERE = 0.02
    /// UERE for dead-reckoned fixes, metres.
    package var deadReckoningUERE = 10.0
    /// Doppler velocity error for autonomous fixes, metres per second.
    package var autonomousVelocityError = 0.1
    /// Doppler velocity error for corrected fixes, metres per second.
    package var correctedVelocityError = 0.05
    /// HDOP assumed for a valid fix that reports none.
    package var assumedHDOP = 2.0
    /// VDOP assumed for a valid fix that reports none.
    package var assumedVDOP = 3.0

    /// The model documented above.
    package init() {}

    /// Horizontal accuracy of a fix, or -1 when it has no position.
    package func horizontalAccuracy(of fix: Fix) -> Double {
        guard fix.hasPosition else { return -1 }
        if let latitudeError = fix.latitudeError, let longitudeError = fix.longitudeError {
            return (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
        }
        return (fix.hdop ?? assumedHDOP) * uere(for: fix.quality)
    }

    /// Vertical accuracy of a fix, or -1 when it has no altitude.
    package func verticalAccuracy(of fix: Fix) -> Double {
        guard fix.mode == .threeDimensional, fix.altitudeMSL != nil else { return -1 }
        if let altitudeError = fix.altitudeError { return altitudeError }
        return (verticalDOP(of: fix) ?? assumedVDOP) * uere(for: fix.quality)
    }

    /// Speed accuracy, or -1 when the speed is unknown.
    package func speedAccuracy(of fix: Fix) -> Double {
        guard fix.hasPosition, fix.speed != nil else { return -1 }
        if let derived = fix.derivedVelocity { return derived.speedError }
        let velocityError = fix.quality == .autonomous || fix.quality == .unknown
            ? autonomousVelocityError : correctedVelocityError
        return max(fix.hdop ?? assumedHDOP, 1) * velocityError
    }

    /// Course accuracy in degrees, or -1 when the course is unknown.
    package func courseAccuracy(of fix: Fix) -> Double {
        guard let speed = fix.speed, fix.course != nil else { return -1 }
        if let derived = fix.derivedVelocity { return derived.courseError ?? -1 }
        let speedError = speedAccuracy(of: fix)
        guard speedError > 0 else { return -1 }
        guard speed > 0 else { return 180 }
        return min(180, atanDegrees(speedError / speed))
    }

    func uere(for quality: FixQuality) -> Double {
        switch quality {
        case .differential: differentialUERE
        case .rtkFixed: rtkFixedUERE
        case .rtkFloat: rtkFloatUERE
        case .deadReckoning, .gnssDeadReckoning: deadReckoningUERE
        case .unknown, .autonomous, .timeOnly, .simulated: autonomousUERE
        }
    }

    func verticalDOP(of fix: Fix) -> Double? {
        if let vdop = fix.vdop { return vdop }
        guard let pdop = fix.pdop, let hdop = fix.hdop, pdop > hdop else { return nil }
        return (pdop * pdop - hdop * hdop).squareRoot()
    }
}

/// The arctangent in degrees, by a short series accurate to 0.01° (no libm needed in the
/// pure core).
func atanDegrees(_ ratio: Double) -> Double {
    // atan(x) = π/2 − atan(1/x) for x > 1; on [0, 1] a rational approximation.
    let x = abs(ratio)
    let inverted = x > 1
    let t = inverted ? 1 / x : x
    let radians = t * (0.999_866_0 + t * t * (-0.330_299_5 + t * t * (0.180_141_0 + t * t * (-0.085_133_0 + t * t * 0.020_835_1))))
    let result = (inverted ? Double.pi / 2 - radians : radians) * 180 / Double.pi
    return ratio < 0 ? -result : result
}
