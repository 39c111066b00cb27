import ArgumentParser
import WaymarkSystem

/// Writes bytes to standard output, whole or not at all.
struct StandardOutput {
    /// Writes every byte, retrying short writes; a closed pipe ends the command quietly, with
    /// status 0 (for a command that ignores SIGPIPE, whose default action ends it first).
    func write(_ bytes: [UInt8]) throws {
        do throws(SystemError) {
            try FileDescriptor.standardOutput.writeAll(bytes)
        } catch where error.errno == Errno.brokenPipe {
            throw ExitCode.success
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
