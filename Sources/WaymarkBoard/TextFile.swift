import Glibc

/// Reads a whole text file with open(2)/read(2): board files are small and WaymarkBoard
/// stays free of Foundation.
enum TextFile {
    /// A file that could not be read: the C call's error text.
    struct ReadError: Error {
        let description: String
    }

    static func read(_ path: String) throws(ReadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(description: "cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read it: \(String(cString: strerror(errno)))")
            }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
