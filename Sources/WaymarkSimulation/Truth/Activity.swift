/// What the device is doing at an instant, finer than the scenario's segment kind: a drive
/// is made of driving legs and stops with the engine idling, a lift ride of waiting and riding.
package enum Activity: String, Hashable, Sendable, CaseIterable {
    /// Lying on a desk (typing and door slams nearby are vibration, not movement).
    case desk
    /// Held by someone standing still (waiting for or in a lift).
    case standing
    /// Carried by someone walking.
    case walking
    /// In a car standing with the engine running (at a light, or before setting off).
    case carIdling
    /// In a moving car.
    case driving
    /// In a moving lift.
    case liftRiding
    /// In an aircraft, from the take-off roll to the end of the landing roll.
    case flying

    /// Whether the device is truly being moved (transported), as opposed to vibrating.
    package var isMoving: Bool {
        switch self {
        case .walking, .driving, .liftRiding, .flying: true
        case .desk, .standing, .carIdling: false
        }
    }
}
