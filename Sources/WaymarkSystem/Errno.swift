import Glibc

/// The `errno` values that code outside WaymarkSystem tells apart or reports, named, so that
/// it needs no libc of its own (compare them with ``SystemError/errno``).
package enum Errno {
    /// EACCES: permission denied.
    package static let permissionDenied = EACCES
    /// EAGAIN: try again (a busy I2C bus, a full buffer).
    package static let tryAgain = EAGAIN
    /// EPIPE: the reading end of a pipe or socket is closed.
    package static let brokenPipe = EPIPE
    /// ECONNRESET: the peer closed the connection with data it had not read.
    package static let connectionReset = ECONNRESET
    /// EEXIST: the file exists.
    package static let fileExists = EEXIST
    /// EINVAL: an invalid argument.
    package static let invalidArgument = EINVAL
    /// EFBIG: a file longer than the reader takes.
    package static let fileTooLarge = EFBIG
    /// EIO: an input/output error.
    package static let inputOutput = EIO
    /// ENODEV: no such device.
    package static let noDevice = ENODEV
    /// ENOENT: no such file or directory.
    package static let noEntry = ENOENT
    /// ENOMEM: out of memory.
    package static let outOfMemory = ENOMEM
    /// EMFILE: the process has as many descriptors open as its limit allows.
    package static let processOutOfDescriptors = EMFILE
    /// ENFILE: the system has as many files open as it allows.
    package static let systemOutOfFiles = ENFILE
    /// ENOBUFS: the kernel has no buffer space for the operation.
    package static let noBufferSpace = ENOBUFS
    /// ENOTSUP: not supported.
    package static let notSupported = ENOTSUP
    /// ENXIO: no such device or address (an I2C NACK).
    package static let noDeviceOrAddress = ENXIO
    /// EREMOTEIO: a remote I/O error (an I2C NACK on some adapters).
    package static let remoteIO = EREMOTEIO
    /// ETIMEDOUT: timed out.
    package static let timedOut = ETIMEDOUT
}
