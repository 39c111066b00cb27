import WaymarkSystem

/// A file or standard input, read in large chunks.
struct ByteSource {
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws {
        if path == "-" {
            descriptor = .standardInput
            ownsDescriptor = false
            return
        }
        do throws(SystemError) {
            descriptor = try FileDescriptor.openToRead(path)
        } catch {
            throw CommandFailure("cannot open '\(path)': \(error.reason)")
        }
        ownsDescriptor = true
        if (try? FileStatus(descriptor))?.kind == .directory {
            close()
            throw CommandFailure("'\(path)' is a directory, not a capture file")
        }
    }

    /// Calls `body` with each chunk until the end of the input.
    func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do throws(SystemError) {
                count = try descriptor.readWaiting(into: buffer)
            } catch {
                throw CommandFailure("read failed: \(error.reason)")
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Closes the file (standard input is left open).
    func close() {
        if ownsDescriptor { try? descriptor.close() }
    }
}
