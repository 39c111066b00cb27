/// Where `waymarkd` serves time to chrony: the `[chrony]` table of a board file (off when
/// absent). docs/ecosystem.md gives the matching chrony.conf lines.
package struct ChronySettings: Hashable, Sendable {
    /// chronyd's SOCK refclock socket, which receives the PPS samples (edges paired with their
    /// UTC second), such as `/run/chrony.waymark.sock`.
    package var socket: String?
    /// The first of two NTP shared-memory units, as gpsd uses 0 and 1: the NMEA-only sample in
    /// this unit, the PPS samples in the next.
    package var sharedMemoryUnit: UInt8?

    /// The highest first unit: chrony's SHM refclock takes units as a key offset from
    /// 0x4e545030 ("NTP0"); ntpd's driver 28 stops at 255, and the PPS unit is one above.
    package static let highestSharedMemoryUnit = 254

    /// The longest socket path: `sun_path` holds 108 bytes with the terminating zero.
    package static let longestSocketPath = 107

    /// Settings serving the socket and the units given.
    package init(socket: String?, sharedMemoryUnit: UInt8?) {
        self.socket = socket
        self.sharedMemoryUnit = sharedMemoryUnit
    }
}

extension ChronySettings {
    /// Reads `[chrony]`, or `nil` when the file has none.
    init?(reader: inout BoardFileReader) throws(BoardError) {
        guard reader.hasTable("chrony") else { return nil }
        let socketFix = "give chronyd's SOCK refclock path, e.g. socket = \"/run/chrony.waymark.sock\""
        socket = try reader.absolutePath("chrony", "socket", fix: socketFix)
        if let socket, socket.utf8.count > Self.longestSocketPath {
            throw reader.error("chrony", "socket", line: reader.line("chrony", "socket"), "longer than a socket address holds (\(Self.longestSocketPath) bytes)", fix: socketFix)
        }
        let unitFix = "give the first of two SHM units, e.g. shm = 0 (NMEA in 0, PPS in 1, as gpsd)"
        sharedMemoryUnit = try reader.integer("chrony", "shm", in: 0...Self.highestSharedMemoryUnit, fix: unitFix).map(UInt8.init)
        guard socket != nil || sharedMemoryUnit != nil else {
            throw reader.error("chrony", "socket", line: nil, "[chrony] serves nothing", fix: socketFix + ", or " + unitFix)
        }
    }
}
