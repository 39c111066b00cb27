/// What a window of accelerometer samples shows.
package enum MotionVerdict: String, Hashable, Sendable {
    /// Sustained low-frequency acceleration: the device is being carried, driven or lifted.
    case moving
    /// Short or high-frequency shaking only (typing, a door slam, an idling engine): the
    /// device itself stays where it is.
    case vibration
    /// Nothing beyond sensor noise.
    case still
}
