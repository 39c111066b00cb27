/// The dimension of a position fix, numbered as gpsd's `mode`.
public enum FixMode: Int, Hashable, Comparable, Sendable {
    /// No fix: the position (if any) is not valid.
    case noFix = 1
    /// Horizontal fix only.
    case twoDimensional = 2
    /// Horizontal and vertical fix.
    case threeDimensional = 3

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How a fix was obtained, numbered as gpsd's TPV `status`.
public enum FixQuality: Int, Hashable, Sendable {
    /// Unknown or no fix.
    case unknown = 0
    /// An autonomous GNSS fix.
    case autonomous = 1
    /// Differential corrections (SBAS, DGPS) applied.
    case differential = 2
    /// RTK with integer ambiguities fixed.
    case rtkFixed = 3
    /// RTK float solution.
    case rtkFloat = 4
    /// Dead reckoning only.
    case deadReckoning = 5
    /// GNSS combined with dead reckoning.
    case gnssDeadReckoning = 6
    /// Time only (surveyed-in timing receivers).
    case timeOnly = 7
    /// Produced by a simulator.
    case simulated = 8
}
