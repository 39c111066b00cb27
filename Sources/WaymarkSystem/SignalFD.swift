import CWaymarkSystem
import Glibc

/// A signalfd (signalfd(2)): signals arrive as readable data instead of interrupting the
/// program, so they are handled in the event loop like any other input.
///
/// Creating one blocks its signals with pthread_sigmask(2) in the calling thread, and threads
/// started afterwards inherit that. A signal sent to the process goes to any thread that does
/// not block it, so create it on the main thread before any other thread starts.
package struct SignalFD: Sendable {
    /// The signalfd descriptor; close it when done (the signals stay blocked).
    package let descriptor: FileDescriptor

    /// Blocks `signals` for the calling thread and creates a nonblocking, close-on-exec
    /// signalfd that reports them.
    package init(_ signals: Set<Signal>) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals {
            sigaddset(&mask, signal.rawValue)
        }
        let result = system_pthread_sigmask(SIG_BLOCK, &mask)
        precondition(result == 0, "pthread_sigmask failed with \(result)")
        let flags = Int32(SFD_NONBLOCK | SFD_CLOEXEC)
        descriptor = FileDescriptor(rawValue: try check("signalfd") { system_signalfd(-1, &mask, flags) })
    }

    /// Takes the next pending signal, or returns `nil` if none is pending.
    package func read() throws(SystemError) -> Signal? {
        var info = signalfd_siginfo()
        let count = try nilIfWouldBlock { () throws(SystemError) in
            try check("read(signalfd)") {
                withUnsafeMutableBytes(of: &info) { system_read(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
        }
        return count == nil ? nil : Signal(rawValue: Int32(info.ssi_signo))
    }
}
