import Glibc

/// A pseudo-terminal pair (pty(7)): the secondary behaves like a serial port and the primary
/// is the device behind it. Tests and replay write NMEA into the primary; the daemon reads
/// the secondary exactly as it reads a real UART.
package struct PseudoTerminal: Sendable {
    /// The device side: what is written here comes out of the secondary.
    package let primary: FileDescriptor
    /// The terminal side, in raw mode: what a serial driver reads.
    package let secondary: FileDescriptor
    /// The secondary's path, such as `/dev/pts/3`, for a process that opens it by name.
    package let secondaryPath: String

    /// Opens a new pair with posix_openpt(3), grantpt(3), unlockpt(3) and ptsname_r(3). Both
    /// ends are nonblocking and close-on-exec; the secondary is in raw mode.
    package init() throws(SystemError) {
        let flags = O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC
        let primary = FileDescriptor(rawValue: try check("posix_openpt") { system_posix_openpt(flags) })
        do throws(SystemError) {
            _ = try check("grantpt") { system_grantpt(primary.rawValue) }
            _ = try check("unlockpt") { system_unlockpt(primary.rawValue) }
            let path = try Self.secondaryPath(of: primary)
            let secondary = try FileDescriptor.open(path, .readWrite)
            do throws(SystemError) {
                try secondary.makeRaw()
            } catch {
                try? secondary.close()
                throw error
            }
            self.primary = primary
            self.secondary = secondary
            self.secondaryPath = path
        } catch {
            try? primary.close()
            throw error
        }
    }

    /// Closes both ends.
    package func close() throws(SystemError) {
        try secondary.close()
        try primary.close()
    }

    private static func secondaryPath(of primary: FileDescriptor) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let result = system_ptsname_r(primary.rawValue, &buffer, buffer.count)
        guard result == 0 else { throw SystemError(errno: result, call: "ptsname_r") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
