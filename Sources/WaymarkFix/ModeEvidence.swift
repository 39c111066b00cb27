import WaymarkLocation
/// What an epoch's sentences said about the fix dimension, combined into one ``FixMode``.
///
/// Precedence: the receiver's own fix type (GSA) decides, except that a GSA 2D fix from four
/// or more satellites with an altitude and a vertical DOP is 3D (a position, an altitude and
/// a vertical dilution from four ranges are a 3D solution whatever the mode field says; many
/// receivers print `A,2` for such fixes); without GSA, the fix quality of GGA/GNS (a fix with
/// an altitude from four or more satellites is 3D, otherwise 2D); without those, the validity
/// flag of RMC/GLL: a valid position is 2D, or 3D when the previous epoch was 3D (these
/// sentences do not report the dimension, so it is held rather than downgraded). A source
/// that says "no fix" makes the epoch a no-fix epoch unless one of higher precedence says
/// otherwise.
struct ModeEvidence: Sendable {
    private var fixType: FixMode?
    private var qualityMode: FixMode?
    private var statusValid: Bool?

    /// The fix type the receiver printed in a complete GSA, if any.
    var receiverMode: FixMode? { fixType }

    mutating func record(fixType type: Int) {
        switch type {
        case 2: fixType = .twoDimensional
        case 3: fixType = .threeDimensional
        case 1: fixType = .noFix
        default: break
        }
    }

    mutating func record(quality: Int, hasAltitude: Bool, satellitesUsed: Int?) {
        if quality == 0 {
            qualityMode = .noFix
        } else {
            qualityMode = hasAltitude && (satellitesUsed ?? 4) >= 4 ? .threeDimensional : .twoDimensional
        }
    }

    mutating func record(statusValid valid: Bool) {
        statusValid = valid
    }

    /// The epoch's dimension. `satellitesUsed` is the larger of GGA/GNS's count and the
    /// satellites GSA lists (some receivers count one constellation in GGA, others cap it).
    func mode(previous: FixMode, satellitesUsed: Int, hasAltitude: Bool, hasVerticalDilution: Bool) -> FixMode {
        if let fixType {
            let solvedIn3D = satellitesUsed >= 4 && hasAltitude && hasVerticalDilution
            return fixType == .twoDimensional && solvedIn3D ? .threeDimensional : fixType
        }
        if let qualityMode { return qualityMode }
        if let statusValid { return statusValid ? max(previous, .twoDimensional) : .noFix }
        return .noFix
    }
}
