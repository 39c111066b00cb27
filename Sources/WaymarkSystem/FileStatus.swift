import Glibc

/// What stat(2) says about a file: its type, owner, group and permission bits.
package struct FileStatus: Hashable, Sendable {
    /// The file's type.
    package enum Kind: Hashable, Sendable {
        case regular, directory, characterDevice, blockDevice, fifo, socket, symbolicLink
    }

    /// The type.
    package let kind: Kind
    /// The owner's user id.
    package let ownerID: UInt32
    /// The group id.
    package let groupID: UInt32
    /// The permission bits, with set-id and sticky (`mode & 0o7777`).
    package let permissions: UInt32
    /// For a device, its major number (Linux's encoding of `st_rdev`); otherwise 0.
    package let deviceMajor: UInt64

    /// The status of the file at `path`, following a symbolic link (stat(2)).
    package init(path: String) throws(SystemError) {
        var status = stat()
        _ = try check("stat", path) { system_stat(path, &status) }
        self.init(status)
    }

    /// The status of `path` itself, a symbolic link not followed (lstat(2)).
    package init(linkAt path: String) throws(SystemError) {
        var status = stat()
        _ = try check("lstat", path) { system_lstat(path, &status) }
        self.init(status)
    }

    /// The status of the open file `descriptor` (fstat(2)).
    package init(_ descriptor: FileDescriptor) throws(SystemError) {
        var status = stat()
        _ = try check("fstat") { system_fstat(descriptor.rawValue, &status) }
        self.init(status)
    }

    private init(_ status: stat) {
        kind =
            switch status.st_mode & S_IFMT {
            case S_IFDIR: .directory
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            case S_IFIFO: .fifo
            case S_IFSOCK: .socket
            case S_IFLNK: .symbolicLink
            default: .regular
            }
        ownerID = status.st_uid
        groupID = status.st_gid
        permissions = status.st_mode & 0o7777
        let device = UInt64(status.st_rdev)
        deviceMajor = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
    }

    /// Whether its group or everyone may write to it.
    package var isWritableByOthers: Bool { permissions & 0o022 != 0 }
}
