import Glibc

/// The running process: who it runs as, and how it ends.
public enum CurrentProcess {
    /// Its real user id (getuid(2)).
    public static var userID: UInt32 { getuid() }
    /// Its effective user id (geteuid(2)), the one the kernel checks access with.
    public static var effectiveUserID: UInt32 { geteuid() }
    /// Its process id (getpid(2)).
    public static var id: Int32 { getpid() }

    /// Ends the process with `status` (exit(3)).
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
