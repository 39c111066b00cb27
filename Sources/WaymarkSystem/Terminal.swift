import Glibc

extension FileDescriptor {
    /// Puts a terminal into raw mode (cfmakeraw(3)): bytes pass unchanged, one read returns
    /// whatever has arrived, and there is no echo, line editing or signal generation.
    public func makeRaw() throws(SystemError) {
        var attributes = termios()
        _ = try check("tcgetattr") { system_tcgetattr(rawValue, &attributes) }
        system_cfmakeraw(&attributes)
        _ = try check("tcsetattr") { system_tcsetattr(rawValue, TCSANOW, &attributes) }
    }
}
