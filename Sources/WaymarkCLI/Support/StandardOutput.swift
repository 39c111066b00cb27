import WaymarkSystem

/// Writes bytes to standard output, whole or not at all.
struct StandardOutput {
    /// Writes every byte, retrying short writes; a closed pipe ends the command quietly.
    func write(_ bytes: [UInt8]) throws {
        do throws(SystemError) {
            try FileDescriptor.standardOutput.writeAll(bytes)
        } catch where error.errno == Errno.brokenPipe {
            return
        } catch {
            throw CommandFailure("write failed: \(error.reason)")
        }
    }
}

/// Writes text to standard error.
enum StandardError {
    static func write(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }
}
