import Glibc

/// Bytes from the kernel's random number generator (getrandom(2)), for secrets.
package enum RandomBytes {
    /// `count` random bytes (at most 256: one call is never cut short below that).
    package static func generate(count: Int) throws(SystemError) -> [UInt8] {
        precondition((1...256).contains(count), "getrandom returns at most 256 bytes in one call for certain")
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try check("getrandom") { bytes.withUnsafeMutableBytes { system_getrandom($0.baseAddress!, $0.count) } }
        guard read == count else { throw SystemError(errno: EIO, call: "getrandom", note: "returned \(read) of \(count) bytes") }
        return bytes
    }
}
