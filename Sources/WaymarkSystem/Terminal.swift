import Glibc

extension FileDescriptor {
    /// Puts a terminal into raw mode (cfmakeraw(3)): bytes pass unchanged, one read returns
    /// whatever has arrived, and there is no echo, line editing or signal generation.
    package func makeRaw() throws(SystemError) {
        var attributes = termios()
        _ = try check("tcgetattr") { system_tcgetattr(rawValue, &attributes) }
        system_cfmakeraw(&attributes)
        _ = try check("tcsetattr") { system_tcsetattr(rawValue, TCSANOW, &attributes) }
    }
}

extension FileDescriptor {
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
