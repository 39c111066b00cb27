/// One signal of one satellite in view, as a GSV sentence described it. Each value the
/// sentence left empty, or gave outside the standard's range (elevation 0–90°, azimuth
/// 0–359°, carrier-to-noise density 0–99 dB-Hz), is `nil`.
package struct SkySatellite: Hashable, Sendable {
    /// The satellite.
    package let identity: SatelliteIdentity
    private let storedSignal: UInt8
    private let storedElevation: Int8
    private let storedAzimuth: Int16
    private let storedSignalStrength: Int8

    /// The NMEA 4.10 signal id of the GSV list (1 is a system's first civil signal, L1 C/A,
    /// E1, B1I…); 0 when the list gave none.
    package var signal: Int { Int(storedSignal) }
    /// Elevation, degrees.
    package var elevation: Int? { storedElevation < 0 ? nil : Int(storedElevation) }
    /// Azimuth, degrees from true north.
    package var azimuth: Int? { storedAzimuth < 0 ? nil : Int(storedAzimuth) }
    /// Carrier-to-noise density, dB-Hz; `nil` when the signal is not tracked.
    package var signalStrength: Int? { storedSignalStrength < 0 ? nil : Int(storedSignalStrength) }

    /// Describes `identity` as a GSV list of signal `signal` (0–15) did; out-of-range values
    /// are dropped.
    @inline(__always)
    package init(identity: SatelliteIdentity, signal: Int, elevation: Int?, azimuth: Int?, signalStrength: Int?) {
        self.identity = identity
        storedSignal = UInt8(truncatingIfNeeded: signal & 0xF)
        storedElevation = elevation.flatMap { (0...90).contains($0) ? Int8($0) : nil } ?? -1
        storedAzimuth = azimuth.flatMap { (0...359).contains($0) ? Int16($0) : nil } ?? -1
        storedSignalStrength = signalStrength.flatMap { (0...99).contains($0) ? Int8($0) : nil } ?? -1
    }

    /// Whether `other` is the same signal of the same satellite.
    @inline(__always)
    func isSameSignal(as other: SkySatellite) -> Bool {
        identity == other.identity && storedSignal == other.storedSignal
    }
}

/// The satellites the receiver last described (its last complete set of GSV lists), and the
/// ones its epoch's GSA sentences say the solution used. Built by ``SkyAssembler``; gpsd's
/// clients get it as SKY's `satellites` (docs/gpsd.md).
package struct SkyView: Hashable, Sendable {
    /// The most satellite signals a view holds: gpsd 3.22's `MAXCHANNELS`, beyond which its
    /// client library refuses a whole SKY report (a u-blox 9 tracks as many).
    package static let capacity = 140

    /// Each satellite's signals in view, in the order the receiver listed them.
    package internal(set) var satellites: [SkySatellite] = []
    /// The satellites the epoch's GSA sentences list as used in the solution.
    package internal(set) var used = SatelliteSet()

    /// An empty view.
    package init() {}

    /// A view of `satellites` (at most ``capacity`` are kept) with `used` as GSA said.
    package init(satellites: [SkySatellite], used: SatelliteSet) {
        self.satellites = satellites.count > Self.capacity ? Array(satellites.prefix(Self.capacity)) : satellites
        self.used = used
    }

    /// Whether the solution used this signal: the satellite is in the epoch's GSA lists and
    /// the signal is tracked (a carrier-to-noise density above 0; GSA does not say which of a
    /// satellite's signals were used, and one not tracked cannot have been).
    package func isUsed(_ satellite: SkySatellite) -> Bool {
        (satellite.signalStrength ?? 0) > 0 && used.contains(satellite.identity)
    }
}
