import Glibc

/// A `sockaddr_un` for a filesystem path, or for a name in the abstract namespace when the
/// path starts with `@` (as `NOTIFY_SOCKET` may).
internal struct UnixSocketAddress {
    private var address = sockaddr_un()
    private let length: socklen_t

    /// The address of `path`; fails with ENAMETOOLONG if it does not fit `sun_path`.
    internal init(_ path: String) throws(SystemError) {
        var bytes = Array(path.utf8)
        let isAbstract = bytes.first == UInt8(ascii: "@")
        if isAbstract {
            bytes[0] = 0
        } else {
            bytes.append(0)
        }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count <= capacity, bytes.count > 1 else {
            throw SystemError(
                errno: ENAMETOOLONG, call: "sockaddr_un", argument: path,
                note: "a Unix socket path must have 1 to \(capacity - 1) bytes")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // Abstract names are exactly as long as given; paths include their terminating NUL.
        length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    internal func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
    ) throws(SystemError) -> Result {
        try withUnsafeBytes(of: address) { raw throws(SystemError) in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// The filesystem path a Unix socket is bound to, from getsockname(2): `nil` for an
    /// unbound or abstract socket.
    internal static func boundPath(of socket: FileDescriptor) throws(SystemError) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        _ = try withUnsafeMutablePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemError) in
                try check("getsockname") { system_getsockname(socket.rawValue, raw, &length) }
            }
        }
        let pathLength = Int(length) - MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return withUnsafeBytes(of: address.sun_path) { raw in
            let bytes = raw.prefix(max(0, pathLength)).prefix { $0 != 0 }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }
}
