/// The positioning mode indicator of NMEA 2.3 and later (RMC, GLL, VTG, GNS).
public enum ModeIndicator: UInt8, Hashable, Sendable {
    /// Autonomous GNSS fix.
    case autonomous = 0x41  // A
    /// Differential fix (SBAS, DGPS).
    case differential = 0x44  // D
    /// Dead reckoning (estimated).
    case estimated = 0x45  // E
    /// RTK float solution.
    case rtkFloat = 0x46  // F
    /// Manual input.
    case manual = 0x4D  // M
    /// No fix: the data is not valid.
    case notValid = 0x4E  // N
    /// Precise (military, or PPP) fix.
    case precise = 0x50  // P
    /// RTK fixed-integer solution.
    case rtkFixed = 0x52  // R
    /// Simulator output.
    case simulator = 0x53  // S

    /// Whether the mode stands for a usable position.
    public var isValid: Bool { self != .notValid }

    /// Whether a sentence whose status field is `status` and whose mode indicator is `mode`
    /// (absent before NMEA 2.3) carries a usable position: status `A` with a valid mode, or a
    /// dead-reckoning estimate (mode `E`), which NMEA 2.3 and later flag with status `V` (the
    /// standard sets `V` for every mode but autonomous and differential, so that a reader of
    /// the status alone ignores an estimate; a reader of the mode may use it).
    static func positionIsUsable(status: UInt8?, mode: ModeIndicator?) -> Bool {
        switch status {
        case UInt8(ascii: "A"): mode?.isValid ?? true
        case UInt8(ascii: "V"): mode == .estimated
        default: false
        }
    }
}
