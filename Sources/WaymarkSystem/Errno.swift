import Glibc

/// The `errno` values that code outside WaymarkSystem tells apart or reports, named, so that
/// it needs no libc of its own (compare them with ``SystemError/errno``).
public enum Errno {
    /// EACCES: permission denied.
    public static let permissionDenied = EACCES
    /// EAGAIN: try again (a busy I2C bus, a full buffer).
    public static let tryAgain = EAGAIN
    /// EPIPE: the reading end of a pipe or socket is closed.
    public static let brokenPipe = EPIPE
    /// EEXIST: the file exists.
    public static let fileExists = EEXIST
    /// EINVAL: an invalid argument.
    public static let invalidArgument = EINVAL
    /// EIO: an input/output error.
    public static let inputOutput = EIO
    /// ENODEV: no such device.
    public static let noDevice = ENODEV
    /// ENOENT: no such file or directory.
    public static let noEntry = ENOENT
    /// ENOMEM: out of memory.
    public static let outOfMemory = ENOMEM
    /// ENOTSUP: not supported.
    public static let notSupported = ENOTSUP
    /// ENXIO: no such device or address (an I2C NACK).
    public static let noDeviceOrAddress = ENXIO
    /// EREMOTEIO: a remote I/O error (an I2C NACK on some adapters).
    public static let remoteIO = EREMOTEIO
    /// ETIMEDOUT: timed out.
    public static let timedOut = ETIMEDOUT
}
