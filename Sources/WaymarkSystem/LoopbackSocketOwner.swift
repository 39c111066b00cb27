/// The user owning the other end of a TCP connection over IPv4 loopback, from the kernel's
/// socket table (`/proc/self/net/tcp`): the identity of a gpsd client connected to 127.0.0.1,
/// where no `SO_PEERCRED` exists. Both ends are on this host, so the peer's socket is in
/// the table with its local and remote addresses swapped from ours.
package enum LoopbackSocketOwner {
    /// An IPv4 address and port, in host byte order.
    package struct Endpoint: Hashable, Sendable {
        package var address: UInt32
        package var port: UInt16

        package init(address: UInt32, port: UInt16) {
            self.address = address
            self.port = port
        }
    }

    /// The table's bound: a line is 150 bytes, so about 28 000 sockets.
    package static let maximumTableBytes = 4 << 20

    /// The owners of the sockets connected to one local endpoint (a listener's), from the
    /// kernel's table, read once for every connection accepted in one turn: each read costs a
    /// line per socket on the host, and a flood of connections closed at once leaves thousands
    /// of lines (their ends wait in TIME_WAIT), so a read for each accepted connection held
    /// the daemon's loop for seconds. Only the sockets connected to `local` are kept.
    package struct Table: Sendable {
        /// The endpoint the sockets are connected to (our side).
        package let local: Endpoint
        /// The owner of each established socket connected to ``local``, by its own `ADDRESS:PORT`.
        private var owners: [[UInt8]: UInt32] = [:]

        /// Parses `/proc/net/tcp`'s text: addresses as the kernel's 32-bit value in hex (the
        /// value's bytes in memory order, so 127.0.0.1 reads `0100007F` on a little-endian
        /// machine), ports in hex, state `01` for established, the uid in decimal in the eighth
        /// column. Lines of other states or other remote ends, or that do not read so, are left out.
        package init(text: [UInt8], connectedTo local: Endpoint) {
            self.local = local
            let remote = LoopbackSocketOwner.field(local)
            for line in text.split(separator: 0x0A).dropFirst() {
                let columns = line.split(separator: 0x20)
                guard columns.count > 7, columns[2].elementsEqual(remote), columns[3].elementsEqual("01".utf8),
                    let uid = LoopbackSocketOwner.decimal(columns[7])
                else { continue }
                owners[Array(columns[1])] = uid
            }
        }

        /// Reads this process's network namespace's table, `/proc/self/net/tcp` (under
        /// `procDirectory`), for the sockets connected to `local`. Not `/proc/net/tcp`: the
        /// installed unit's `ProcSubset=pid` hides that link, and leaves the process's own directory.
        package static func read(connectedTo local: Endpoint, procDirectory: String = "/proc") throws(SystemError) -> Table {
            Table(text: try FileDescriptor.readFile(procDirectory + "/self/net/tcp", maximumBytes: maximumTableBytes), connectedTo: local)
        }

        /// The uid of the established socket whose local end is `peer` and remote end ``local``;
        /// `nil` when the table has none (the peer already closed it).
        package func owner(peer: Endpoint) -> UInt32? {
            owners[LoopbackSocketOwner.field(peer)]
        }
    }

    /// `ADDRESS:PORT` as the table prints an endpoint.
    private static func field(_ endpoint: Endpoint) -> [UInt8] {
        // The kernel prints the address as the native word holding its network-order bytes.
        hex(endpoint.address.bigEndian, digits: 8) + [UInt8(ascii: ":")]
            + hex(UInt32(endpoint.port), digits: 4)
    }

    private static func hex(_ value: UInt32, digits: Int) -> [UInt8] {
        (0..<digits).reversed().map { index in
            let nibble = UInt8(truncatingIfNeeded: value >> (UInt32(index) * 4)) & 0xF
            return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
        }
    }

    fileprivate static func decimal(_ digits: ArraySlice<UInt8>) -> UInt32? {
        guard !digits.isEmpty, digits.count <= 10 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt32(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
