import Glibc

/// Reads a whole text file with open(2)/read(2): board files are small and WaymarkBoard
/// stays free of Foundation.
enum TextFile {
    /// The largest board or settings file read (far beyond any real one).
    static let largestFile = 1 << 20

    /// The text of the file at `path`, refused beyond `limit` bytes (a device such as
    /// /dev/zero named by mistake must not fill memory); a failure names `key` and the `fix`.
    static func read(_ path: String, key: String = "file", limit: Int = largestFile, fix: String) throws(BoardError) -> String {
        func failure(_ problem: String) -> BoardError {
            BoardError(file: path, line: nil, key: key, problem: problem, fix: fix)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read it: \(String(cString: strerror(errno)))")
            }
            guard bytes.count + count <= limit else { throw failure("longer than \(limit) bytes") }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
