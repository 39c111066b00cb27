import Glibc
import WaymarkSystem

extension FileDescriptor {
    /// Sets the socket's kernel send buffer (`SO_SNDBUF`; the kernel doubles the value for
    /// its bookkeeping and raises it to its minimum).
    func setSendBufferSize(_ bytes: Int32) throws(SystemError) {
        var value = bytes
        guard setsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemError(errno: errno, call: "setsockopt", argument: "SO_SNDBUF")
        }
    }
}
