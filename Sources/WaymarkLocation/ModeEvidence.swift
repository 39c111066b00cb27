/// What an epoch's sentences said about the fix dimension, combined into one ``FixMode``.
///
/// Precedence: the receiver's own fix type (GSA) decides; without it, the fix quality of
/// GGA/GNS (a fix with an altitude from four or more satellites is 3D, otherwise 2D);
/// without those, the validity flag of RMC/GLL: a valid position is 2D, or 3D when the
/// previous epoch was 3D (these sentences do not report the dimension, so it is held rather
/// than downgraded). A source that says "no fix" makes the epoch a no-fix epoch unless one
/// of higher precedence says otherwise.
struct ModeEvidence: Sendable {
    private var fixType: FixMode?
    private var qualityMode: FixMode?
    private var statusValid: Bool?

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

    func mode(previous: FixMode) -> FixMode {
        if let fixType { return fixType }
        if let qualityMode { return qualityMode }
        if let statusValid { return statusValid ? max(previous, .twoDimensional) : .noFix }
        return .noFix
    }
}
