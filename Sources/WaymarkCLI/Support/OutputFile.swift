import WaymarkSystem

/// A file the tool writes: created (or truncated), then written whole, line by line or at once.
struct OutputFile {
    private let path: String
    private let descriptor: FileDescriptor

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        self.path = path
        do throws(SystemError) {
            descriptor = try FileDescriptor.create(path)
        } catch {
            throw CommandFailure("cannot write '\(path)': \(error.reason)")
        }
    }

    /// Writes `bytes` whole.
    func write(_ bytes: [UInt8]) throws {
        do throws(SystemError) {
            try descriptor.writeAll(bytes)
        } catch {
            throw CommandFailure("cannot write '\(path)': \(error.reason)")
        }
    }

    /// Writes `line` and a newline at once.
    func append(line: String) throws {
        try write(Array((line + "\n").utf8))
    }

    /// Closes the file.
    func close() {
        try? descriptor.close()
    }

    /// Writes the whole file at `path`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try OutputFile(path: path)
        defer { file.close() }
        try file.write(bytes)
    }
}
