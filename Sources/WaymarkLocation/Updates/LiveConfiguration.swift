/// What kind of activity a live-updates subscription serves, as in Core Location's
/// `CLLocationUpdate.LiveConfiguration`. Each maps to concrete stationary detection and
/// delivery behaviour; the table is in `docs/semantics.md`.
public enum LiveConfiguration: String, Hashable, Sendable, CaseIterable {
    /// General use: pauses when the device has been still for a short while.
    case `default`
    /// Driving: vehicle vibration (an idling engine) is not movement.
    case automotiveNavigation
    /// Other vehicles (boats, trains): gentle, slow motion still counts as movement.
    case otherNavigation
    /// Walking, running, cycling: small, slow movements count.
    case fitness
    /// Aircraft: never pauses on a calm accelerometer alone (a smooth flight is calm).
    case airborne
}
