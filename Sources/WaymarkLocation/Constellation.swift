/// A satellite navigation system.
public enum Constellation: Int, Hashable, Sendable, CaseIterable {
    /// GPS (USA).
    case gps = 0
    /// SBAS augmentation satellites (WAAS, EGNOS, MSAS, …).
    case sbas = 1
    /// Galileo (EU).
    case galileo = 2
    /// BeiDou (China).
    case beidou = 3
    /// QZSS (Japan).
    case qzss = 5
    /// GLONASS (Russia).
    case glonass = 6
    /// NavIC / IRNSS (India).
    case navic = 7

    /// A short lowercase name, as used in JSON output.
    public var name: String {
        switch self {
        case .gps: "gps"
        case .sbas: "sbas"
        case .galileo: "galileo"
        case .beidou: "beidou"
        case .qzss: "qzss"
        case .glonass: "glonass"
        case .navic: "navic"
        }
    }
}
