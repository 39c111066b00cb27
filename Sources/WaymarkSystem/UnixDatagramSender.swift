import Glibc

/// A nonblocking Unix datagram socket that sends to one path with sendto(2), such as the socket
/// chrony's SOCK refclock listens on. The path is resolved at every send, so a receiver that
/// restarts and binds its socket anew is reached again.
package final class UnixDatagramSender {
    /// The path datagrams go to.
    package let path: String
    private let address: UnixSocketAddress
    private let socket: FileDescriptor

    /// A sender to `path`; fails if the path does not fit a `sockaddr_un`.
    package init(path: String) throws(SystemError) {
        self.path = path
        address = try UnixSocketAddress(path)
        socket = try FileDescriptor.unixSocket(SOCK_DGRAM)
    }

    /// Sends `bytes` as one datagram. Returns `false` when it was dropped because nobody
    /// receives: no socket at the path (ENOENT), none bound to it (ECONNREFUSED), or the
    /// receiver's queue is full (EAGAIN). Other errors throw.
    package func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Bool {
        do throws(SystemError) {
            _ = try address.withSocketAddress { pointer, length throws(SystemError) in
                try check("sendto", path) {
                    system_sendto(socket.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), pointer, length)
                }
            }
            return true
        } catch let error where [EAGAIN, ENOENT, ECONNREFUSED].contains(error.errno) {
            return false
        }
    }

    /// Closes the socket.
    package func close() {
        try? socket.close()
    }
}
