package import Glibc

/// The sockets a service manager opened for this process (socket activation, the
/// sd_listen_fds(3) protocol, without libsystemd): `LISTEN_FDS` descriptors from 3 on, meant
/// for the process `LISTEN_PID` names.
package enum SocketActivation {
    /// The first passed descriptor, as the protocol fixes it.
    package static let firstDescriptor: Int32 = 3

    /// The descriptors passed to process `pid`, given the values of `LISTEN_PID` and
    /// `LISTEN_FDS`: none when either is missing or malformed, when `LISTEN_PID` names another
    /// process (a variable inherited from a parent that was activated itself), or when the
    /// count passes the descriptors a process may have open.
    package static func descriptors(listenPID: String?, listenFDs: String?, pid: pid_t) -> [FileDescriptor] {
        let openMaximum = Int32(clamping: sysconf(Int32(_SC_OPEN_MAX)))
        guard let listenPID, pid_t(listenPID) == pid, let listenFDs, let count = Int32(listenFDs),
            count > 0, count <= openMaximum - firstDescriptor
        else { return [] }
        return (firstDescriptor..<firstDescriptor + count).map(FileDescriptor.init(rawValue:))
    }

    /// Takes the sockets passed to this process: reads `LISTEN_PID`, `LISTEN_FDS` and
    /// `LISTEN_FDNAMES`, removes them from the environment so no child inherits them, and
    /// marks the descriptors close-on-exec. Call it before anything opens a descriptor: a
    /// passed number that is not open (EBADF) is an error now, where later it might name a
    /// file the process opened itself.
    package static func take() throws(SystemError) -> [FileDescriptor] {
        let listenFDs = Environment.value("LISTEN_FDS")
        let descriptors = descriptors(listenPID: Environment.value("LISTEN_PID"), listenFDs: listenFDs, pid: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        for descriptor in descriptors where system_fcntl(descriptor.rawValue, F_SETFD, FD_CLOEXEC) == -1 {
            throw SystemError(
                errno: Glibc.errno, call: "socket activation",
                note: "LISTEN_FDS=\(listenFDs ?? "") passes descriptor \(descriptor.rawValue), which is not open")
        }
        return descriptors
    }
}
