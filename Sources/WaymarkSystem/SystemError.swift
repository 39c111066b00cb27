import Glibc

/// A failed system call: the `errno` it reported and the call's name, with the path or other
/// argument that identifies what it was working on.
///
/// Its description reads like `open("/dev/ttyS1"): No such file or directory (errno 2)`.
/// Only environmental failures are thrown; EBADF and EFAULT mean a bug in the caller and trap
/// (as in SwiftNIO), because continuing with a wrong descriptor could touch someone else's file.
package struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value, such as `ENOENT`.
    package var errno: Int32
    /// The C call that failed, such as `"open"`.
    package var call: String
    /// What the call was working on (usually a path), if that helps the reader.
    package var argument: String?
    /// A further explanation when `errno` alone would mislead.
    package var note: String?

    /// Creates an error for `call`, which failed with `errno`.
    package init(errno: Int32, call: String, argument: String? = nil, note: String? = nil) {
        self.errno = errno
        self.call = call
        self.argument = argument
        self.note = note
    }

    /// What `errno` means, as strerror(3) says it: `No such file or directory`.
    package var reason: String {
        String(cString: strerror(errno))
    }

    /// `open("/dev/ttyS1"): No such file or directory (errno 2)`, then the note if any.
    package var description: String {
        var text = call
        if let argument { text += "(\"\(argument)\")" }
        text += ": \(reason) (errno \(errno))"
        if let note { text += "; \(note)" }
        return text
    }

    /// The error for the `errno` that a C library's call (libgpiod, libserialport) just left.
    package static func fromErrno(_ call: String, _ argument: String? = nil) -> SystemError {
        SystemError(errno: Glibc.errno, call: call, argument: argument)
    }

    /// The error for the current `errno`, trapping on the errors that only a bug can cause.
    internal static func last(_ call: String, _ argument: String? = nil) -> SystemError {
        let code = Glibc.errno
        precondition(
            code != EBADF && code != EFAULT,
            "\(call): \(String(cString: strerror(code))) — a programming error, not an I/O failure"
        )
        return SystemError(errno: code, call: call, argument: argument)
    }
}
