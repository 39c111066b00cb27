#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for writing through C stdio; `-` is standard output.
struct OutputFile: ~Copyable {
    private let stream: UnsafeMutablePointer<FILE>

    init?(path: String) {
        guard let opened = path == "-" ? fdopen(STDOUT_FILENO, "wb") : fopen(path, "wb") else {
            return nil
        }
        stream = opened
    }

    /// Writes all of `bytes`; false on an I/O error.
    func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.isEmpty || fwrite(buffer.baseAddress, 1, buffer.count, stream) == buffer.count
        }
    }

    /// Flushes and closes the file; false on an I/O error.
    consuming func close() -> Bool {
        fclose(stream) == 0
    }
}
