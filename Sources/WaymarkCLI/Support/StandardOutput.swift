#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to standard output with `write(2)`, whole or not at all.
struct StandardOutput {
    /// Writes every byte, retrying short writes; a closed pipe ends the command quietly.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { return }
                    throw CommandFailure("write failed: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}

/// Writes text to standard error.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
