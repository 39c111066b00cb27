package import WaymarkLocation

/// What a ``LiveConfiguration`` means in numbers: when the device counts as stationary, what
/// counts as movement. Every fix is delivered whatever its accuracy, as Core Location does:
/// the location carries its accuracy and the app judges. The table is in `docs/semantics.md`.
package struct ConfigurationProfile: Hashable, Sendable {
    /// How long the device must show no movement before the subscription pauses.
    package var stationaryDwell: Duration
    /// Whether a calm accelerometer alone (with no GPS fix to agree) may pause the
    /// subscription. False for `airborne`: a smooth flight is calm.
    package var accelerometerAlonePauses: Bool
    /// GPS speed at or above which the device is moving, m/s.
    package var movingSpeed: Double
    /// GPS speed below which the device may be stationary, m/s.
    package var stationarySpeed: Double

    /// The profile of a configuration, with the stationary dwell derived from the receiver's
    /// hot-start time: restarting costs about one hot start at acquisition current, so a
    /// stop worth pausing for is a few hot starts long.
    package init(_ configuration: LiveConfiguration, hotStart: Duration) {
        let restartScaled = hotStart * 5
        func dwell(atLeast minimum: Duration) -> Duration { max(minimum, restartScaled) }
        switch configuration {
        case .default:
            stationaryDwell = dwell(atLeast: .seconds(6))
            accelerometerAlonePauses = true
            movingSpeed = 1.0
            stationarySpeed = 0.5
        case .automotiveNavigation:
            stationaryDwell = dwell(atLeast: .seconds(10))
            accelerometerAlonePauses = true
            movingSpeed = 2.0
            stationarySpeed = 1.0
        case .otherNavigation:
            stationaryDwell = dwell(atLeast: .seconds(15))
            accelerometerAlonePauses = true
            movingSpeed = 1.0
            stationarySpeed = 0.4
        case .fitness:
            stationaryDwell = dwell(atLeast: .seconds(6))
            accelerometerAlonePauses = true
            movingSpeed = 0.7
            stationarySpeed = 0.3
        case .airborne:
            stationaryDwell = dwell(atLeast: .seconds(30))
            accelerometerAlonePauses = false
            movingSpeed = 3.0
            stationarySpeed = 1.0
        }
    }
}
