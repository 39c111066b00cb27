import CWaymarkSystem
import Glibc

/// An eventfd (eventfd(2)): a counter that any thread can bump to make the descriptor
/// readable, which is how other threads wake an event loop.
package struct EventFD: Sendable {
    /// The eventfd descriptor; close it when done.
    package let descriptor: FileDescriptor

    /// Creates a nonblocking, close-on-exec eventfd whose counter starts at 0.
    package init() throws(SystemError) {
        let flags = Int32(EFD_NONBLOCK | EFD_CLOEXEC)
        descriptor = FileDescriptor(rawValue: try check("eventfd") { system_eventfd(0, flags) })
    }

    /// Adds 1 to the counter, making the descriptor readable. Safe from any thread.
    package func signal() throws(SystemError) {
        var one: UInt64 = 1
        // Only a counter at its 2^64-2 limit would refuse, and then it is readable already.
        _ = try nilIfWouldBlock { () throws(SystemError) in
            try check("write(eventfd)") {
                withUnsafeBytes(of: &one) { system_write(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
        }
    }

    /// Reads and resets the counter, or returns `nil` if it was 0.
    package func drain() throws(SystemError) -> UInt64? {
        try descriptor.readCounter("read(eventfd)")
    }
}
