import Glibc
import WaymarkSystem

/// 8N1, no flow control, raw, at a baud rate, applied with termios to any terminal: what
/// ``TerminalPort`` uses where libserialport cannot go (pseudo-terminals).
enum SerialSettings {
    /// The termios speed constant for `rate`, or `nil` if it is not a standard rate.
    static func speed(for rate: Int) -> speed_t? {
        switch rate {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 921600: speed_t(B921600)
        default: nil
        }
    }

    /// Applies raw 8N1 at `rate` with no flow control to the terminal `fd`, without flushing
    /// what is already buffered (TCSANOW).
    static func apply(to fd: FileDescriptor, path: String, rate: Int) throws(SystemError) {
        guard let speed = speed(for: rate) else {
            throw SystemError(errno: EINVAL, call: "cfsetspeed", argument: path, note: "\(rate) is not a supported baud rate")
        }
        var attributes = termios()
        guard tcgetattr(fd.rawValue, &attributes) == 0 else { throw lastError("tcgetattr", path) }
        cfmakeraw(&attributes)
        attributes.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        attributes.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        attributes.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        guard cfsetispeed(&attributes, speed) == 0, cfsetospeed(&attributes, speed) == 0 else {
            throw lastError("cfsetspeed", path)
        }
        guard tcsetattr(fd.rawValue, TCSANOW, &attributes) == 0 else { throw lastError("tcsetattr", path) }
    }
}
