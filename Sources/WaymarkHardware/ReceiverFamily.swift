/// Which command set a receiver speaks besides NMEA: it decides the baud-switch and
/// power-down commands available.
package enum ReceiverFamily: String, Hashable, Sendable, CaseIterable {
    /// u-blox: UBX binary and PUBX sentences.
    case ublox
    /// MediaTek and MediaTek-based modules (Adafruit Ultimate GPS, Quectel L76/L80): PMTK.
    case mediatek
    /// Plain NMEA, no vendor commands.
    case generic
}
