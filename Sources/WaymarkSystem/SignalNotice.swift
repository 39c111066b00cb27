import Glibc
import Synchronization

/// The eventfd the handler ``Signal/notify(_:)`` installs bumps, or -1 before one is given.
private let noticeDescriptor = Atomic<Int32>(-1)

extension Signal {
    /// Handles this signal from now on by adding 1 to `notice`'s counter (signal(2), with the
    /// handler doing only write(2), which is async-signal-safe).
    ///
    /// This is for a program whose threads cannot all block the signal, as a ``SignalFD`` needs:
    /// an async `main` starts after Swift's cooperative threads. Every signal handled this way
    /// bumps the eventfd given last.
    package func notify(_ notice: EventFD) {
        noticeDescriptor.store(notice.descriptor.rawValue, ordering: .sequentiallyConsistent)
        _ = Glibc.signal(rawValue) { _ in
            let savedErrno = errno
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) {
                system_write(noticeDescriptor.load(ordering: .sequentiallyConsistent), $0.baseAddress, $0.count)
            }
            errno = savedErrno
        }
    }

    /// Gives the signal its default action back (signal(2) with `SIG_DFL`).
    package func restoreDefault() {
        _ = Glibc.signal(rawValue, SIG_DFL)
    }
}
