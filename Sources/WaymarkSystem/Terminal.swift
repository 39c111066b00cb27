import Glibc

extension FileDescriptor {
    /// Puts a terminal into raw mode (cfmakeraw(3)): bytes pass unchanged, one read returns
    /// whatever has arrived, and there is no echo, line editing or signal generation.
    package func makeRaw() throws(SystemError) {
        try changeTerminalAttributes { system_cfmakeraw(&$0) }
    }

    /// Sets a terminal to raw 8N1 at `baudRate` with no flow control, as a receiver's UART
    /// runs, without flushing what is already buffered (TCSANOW). Throws EINVAL for a rate
    /// that is not a standard one.
    package func makeSerial(baudRate: Int) throws(SystemError) {
        guard let speed = Self.speed(for: baudRate) else {
            throw SystemError(errno: EINVAL, call: "cfsetspeed", note: "\(baudRate) is not a supported baud rate")
        }
        var speedSet = true
        try changeTerminalAttributes { attributes in
            system_cfmakeraw(&attributes)
            attributes.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
            attributes.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
            attributes.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
            speedSet = system_cfsetspeed(&attributes, speed) == 0
        }
        if !speedSet { throw SystemError(errno: EINVAL, call: "cfsetspeed", note: "\(baudRate) baud") }
    }

    /// Waits until everything written to a terminal has been transmitted (tcdrain(3)). A pipe
    /// or FIFO has nothing to drain and returns at once.
    package func drainOutput() throws(SystemError) {
        guard isTerminal else { return }
        _ = try check("tcdrain") { system_tcdrain(rawValue) }
    }

    /// Reads the terminal's attributes, lets `change` edit them, and applies them at once
    /// (tcgetattr(3), tcsetattr(3) with TCSANOW).
    private func changeTerminalAttributes(_ change: (inout termios) -> Void) throws(SystemError) {
        var attributes = termios()
        _ = try check("tcgetattr") { system_tcgetattr(rawValue, &attributes) }
        change(&attributes)
        _ = try check("tcsetattr") { system_tcsetattr(rawValue, TCSANOW, &attributes) }
    }

    /// The termios speed constant for `rate`, or `nil` if it is not a standard rate.
    private static func speed(for rate: Int) -> speed_t? {
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
}

extension FileDescriptor {
    /// Standard input.
    package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// Standard output.
    package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Standard error.
    package static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Whether it is a terminal (isatty(3)).
    package var isTerminal: Bool { system_isatty(rawValue) == 1 }

    /// The terminal's width in columns (ioctl TIOCGWINSZ); `nil` when it is not a terminal or
    /// does not say.
    package var terminalColumns: Int? {
        var columns: UInt16 = 0
        guard system_terminal_columns(rawValue, &columns) == 0, columns > 0 else { return nil }
        return Int(columns)
    }
}
