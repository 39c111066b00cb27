import WaymarkSystem

/// Reads a whole board or settings file as text, with a bound: a device such as /dev/zero
/// named by mistake must not fill memory.
enum TextFile {
    /// The largest board or settings file read (far beyond any real one).
    static let largestFile = 1 << 20

    /// The text of the file at `path`, refused beyond `limit` bytes; a failure names `key` and
    /// the `fix`.
    static func read(_ path: String, key: String = "file", limit: Int = largestFile, fix: String) throws(BoardError) -> String {
        do throws(SystemError) {
            return String(decoding: try FileDescriptor.readFile(path, maximumBytes: limit), as: UTF8.self)
        } catch {
            // A file over the limit is told as such; other failures by the system's reason.
            let problem = error.errno == Errno.fileTooLarge ? "longer than \(limit) bytes" : "cannot read it: \(error.reason)"
            throw BoardError(file: path, line: nil, key: key, problem: problem, fix: fix)
        }
    }
}
