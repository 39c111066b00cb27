import Glibc

/// The running process: who it runs as, and how it ends.
package enum CurrentProcess {
    /// Its real user id (getuid(2)).
    package static var userID: UInt32 { getuid() }
    /// Its effective user id (geteuid(2)), the one the kernel checks access with.
    package static var effectiveUserID: UInt32 { geteuid() }
    /// Its process id (getpid(2)).
    package static var id: Int32 { getpid() }

    /// Sleeps for `duration` (nanosleep(2), resumed after a signal): for a loop with nothing to
    /// wait on.
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Ends the process with `status` after writing `program: message` on standard error, its
    /// control characters escaped but its line breaks kept (`DisplayText.printable`): a
    /// message that quotes a file's bytes cannot steer the terminal that shows it.
    package static func exit(_ status: Int32, program: String, saying message: String) -> Never {
        let line = "\(program): \(DisplayText.printable(message, keepingLineBreaks: true))\n"
        try? FileDescriptor.standardError.writeAll(Array(line.utf8))
        exit(status)
    }

    /// Ends the process with `status` (exit(3)).
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
