package import Glibc

/// A System V shared-memory segment attached to this process (shmget(2), shmat(2)), such as an
/// NTP SHM reference-clock segment. Call ``detach()`` when done; the segment itself outlives
/// the process, as its readers expect.
package final class SharedMemorySegment {
    /// The segment's key.
    package let key: key_t
    /// Its first byte in this process.
    package let base: UnsafeMutableRawPointer
    /// The size asked for.
    package let size: Int

    /// Attaches the segment at `key`, creating it with `permissions` (such as `0o600`) when
    /// absent. Fails with EINVAL when it exists but is smaller than `size`.
    package init(key: key_t, size: Int, permissions: Int32) throws(SystemError) {
        let argument = "key 0x" + String(UInt32(bitPattern: key), radix: 16)
        let id = try check("shmget", argument) { shmget(key, size, IPC_CREAT | (permissions & 0o777)) }
        guard let base = shmat(id, nil, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SystemError.last("shmat", argument)
        }
        self.key = key
        self.base = base
        self.size = size
    }

    /// Detaches the segment from this process.
    package func detach() {
        _ = shmdt(base)
    }
}
