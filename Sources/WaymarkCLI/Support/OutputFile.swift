import Glibc

/// Writes a whole file with open(2)/write(2).
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommandFailure("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
