#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or standard input, read in large chunks with `read(2)`.
struct ByteSource {
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws {
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CommandFailure("cannot open '\(path)': \(String(cString: strerror(errno)))")
            }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                Glibc.close(descriptor)
                throw CommandFailure("'\(path)' is a directory, not a capture file")
            }
            ownsDescriptor = true
        }
    }

    /// Calls `body` with each chunk until the end of the input.
    func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let capacity = 1 << 16
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, capacity)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("read failed: \(String(cString: strerror(errno)))")
            }
            try body(UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
    }

    /// Closes the file (standard input is left open).
    func close() {
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }
}
