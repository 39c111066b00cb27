import WaymarkNMEA
package import WaymarkLocation

/// A GNSS receiver's figures: currents per power state, supply voltage, times to first fix,
/// ephemeris validity, constellations, sentence set and error model. Sources and the values
/// that are assumptions are listed in `docs/simulation.md`.
package struct ReceiverProfile: Hashable, Sendable {
    /// The order in which the receiver writes an epoch's sentences.
    package enum SentenceLayout: Hashable, Sendable {
        /// u-blox M8 default: RMC, VTG, GGA, GSA per constellation, GSV per constellation,
        /// (GST when enabled), GLL. Quectel L76 uses the same set and order.
        case ublox
        /// MediaTek MT3339 default: GGA, GSA, GSV, RMC, VTG.
        case mediatek
    }

    /// A short identifier (`ublox-m8`, `mt3339`, `quectel-l76`).
    package var name: String
    /// Supply voltage of the main and backup supplies, volts.
    package var supplyVoltage: Double
    /// Current with only the backup supply kept, mA.
    package var backupCurrent: Double
    /// Current in standby (navigation stopped, memory kept), mA.
    package var standbyCurrent: Double
    /// Current while acquiring, mA.
    package var acquisitionCurrent: Double
    /// Current while tracking, mA.
    package var trackingCurrent: Double
    /// Time to first fix, hot start.
    package var hotStart: Duration
    /// Time to first fix, warm start.
    package var warmStart: Duration
    /// Time to first fix, cold start.
    package var coldStart: Duration
    /// How long after the last fix the stored ephemeris still allows a hot start.
    package var ephemerisValidity: Duration
    /// Whether the board keeps a backup supply (battery, supercap) when main power is cut.
    package var hasBackupSupply: Bool
    /// The receiver's own orbit prediction, once enabled (AssistNow Autonomous, EASY).
    package var orbitPrediction: OrbitPrediction?
    /// The constellations tracked.
    package var constellations: [Constellation]
    /// The sentence set and order.
    package var layout: SentenceLayout
    /// 1-sigma position error per horizontal axis at HDOP 1, metres.
    package var horizontalError: Double
    /// 1-sigma speed error per axis, m/s.
    package var speedError: Double
    /// Whether GST (error statistics) is output.
    package var emitsGST: Bool
    /// The measurement interval asked for from power-up to the first fix (``FirstFixRate``):
    /// 200 ms, a rate each of these receivers sustains with its full sentence set at
    /// 57,600 baud and more.
    package var firstFixInterval = Duration.milliseconds(200)
    /// Time to fix again after the signal was blocked for a while, ephemeris and time still
    /// known: 1 s in the u-blox M8 data sheet, under 1 s in MediaTek's and Quectel's.
    package var reacquisitionTime = Duration.seconds(1)
    /// What the receiver prints when it boots: u-blox's `GNTXT` banner, MediaTek's
    /// `PMTK011`/`PMTK010` system messages.
    package var startupMessage: [UInt8]

    /// The current drawn in a power state, mA.
    package func current(in state: ReceiverPowerState) -> Double {
        switch state {
        case .off: 0
        case .backup: backupCurrent
        case .standby: standbyCurrent
        case .acquiring: acquisitionCurrent
        case .tracking: trackingCurrent
        }
    }

    /// Time to first fix for a kind of start.
    package func timeToFirstFix(_ kind: StartKind) -> Duration {
        switch kind {
        case .hot, .predicted: hotStart
        case .warm: warmStart
        case .cold: coldStart
        }
    }

    /// u-blox NEO-M8N (M8 figures from the SAM-M8Q data sheet UBX-16012619 at 3.0 V,
    /// GPS + GLONASS). Standby is the 9.5 mA power-save mode; warm start is an assumption.
    package static let ubloxM8 = ReceiverProfile(
        name: "ublox-m8", supplyVoltage: 3.0, backupCurrent: 0.015, standbyCurrent: 9.5, acquisitionCurrent: 32,
        trackingCurrent: 29, hotStart: .seconds(1), warmStart: .seconds(25), coldStart: .seconds(26),
        ephemerisValidity: .seconds(4 * 3_600), hasBackupSupply: true, orbitPrediction: .threeDays, constellations: [.gps, .glonass],
        layout: .ublox, horizontalError: 2.1, speedError: 0.05, emitsGST: false,
        startupMessage: Array("$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E\r\n$GNTXT,01,01,02,HW UBX-M8030 00080000*60\r\n".utf8))

    /// MediaTek MT3339 as on the Adafruit Ultimate GPS (GlobalTop PA6H), GPS only, 3.3 V.
    /// Times to first fix from the PA6H data sheet (1 s hot, 33 s warm, 35 s cold); standby
    /// as measured by a user.
    package static let mediatekMT3339 = ReceiverProfile(
        name: "mt3339", supplyVoltage: 3.3, backupCurrent: 0.007, standbyCurrent: 2, acquisitionCurrent: 25,
        trackingCurrent: 20, hotStart: .seconds(1), warmStart: .seconds(33), coldStart: .seconds(35),
        ephemerisValidity: .seconds(2 * 3_600), hasBackupSupply: true, orbitPrediction: .threeDays, constellations: [.gps],
        layout: .mediatek, horizontalError: 2.5, speedError: 0.1, emitsGST: false, startupMessage: mediatekStartup)

    /// Quectel L76 (MediaTek inside), GPS + GLONASS, 3.3 V. Standby (STANDBY pin) and
    /// backup currents from Quectel documents; acquisition, tracking and TTFF are
    /// typical values, unverified.
    package static let quectelL76 = ReceiverProfile(
        name: "quectel-l76", supplyVoltage: 3.3, backupCurrent: 0.014, standbyCurrent: 0.6, acquisitionCurrent: 26,
        trackingCurrent: 22, hotStart: .seconds(1), warmStart: .seconds(30), coldStart: .seconds(35),
        ephemerisValidity: .seconds(2 * 3_600), hasBackupSupply: true, orbitPrediction: .threeDays, constellations: [.gps, .glonass],
        layout: .ublox, horizontalError: 2.1, speedError: 0.1, emitsGST: false, startupMessage: mediatekStartup)

    /// `$PMTK011,MTKGPS` and `$PMTK010,001` (start-up), as MediaTek chips print them.
    static let mediatekStartup = Array("$PMTK011,MTKGPS*08\r\n$PMTK010,001*2E\r\n".utf8)

    /// The profiles above.
    package static let all = [ubloxM8, mediatekMT3339, quectelL76]

    /// The profile with a name, if any.
    package static func named(_ name: String) -> ReceiverProfile? {
        all.first { $0.name == name }
    }
}
