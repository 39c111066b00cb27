import Glibc

/// A fresh directory under /tmp, removed with everything in it by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/waymark-test-XXXXXX".utf8)
        template.append(0)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) != nil }
        }
        precondition(made, "mkdtemp failed with errno \(errno)")
        path = String(decoding: template.dropLast(), as: UTF8.self)
    }

    /// The path of `name` inside the directory.
    func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Removes the directory's entries (it has no subdirectories) and then the directory.
    func remove() {
        guard let directory = opendir(path) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(appending(name)) }
        }
        closedir(directory)
        rmdir(path)
    }
}

/// The permission bits and file type of `path`, from lstat(2).
func fileMode(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode : nil
}
