package import Glibc

/// One file of a ``ConfigurationDirectory``.
package struct ConfigurationFile: Hashable, Sendable {
    /// The file's path.
    package var path: String
    /// Its contents.
    package var bytes: [UInt8]
}

/// The files of an operator's configuration directory, such as `/etc/waymark/apps.d`, read
/// only when no one but a trusted owner (root) could have written them: the directory and
/// every file must belong to a trusted owner and must not be writable by group or others;
/// files must be regular (a symbolic link is refused). Sizes are bounded.
package struct ConfigurationDirectory: Sendable {
    /// The directory's path.
    package var path: String
    /// Who may own the directory and its files (root).
    package var trustedOwners: Set<uid_t>
    /// Only names ending with this are read (`.toml`); names starting with `.` are skipped.
    package var suffix: String
    /// The most files read.
    package var maximumFiles: Int
    /// The largest file read.
    package var maximumBytes: Int

    /// The directory at `path` whose files end with `suffix`.
    package init(path: String, suffix: String, trustedOwners: Set<uid_t> = [0], maximumFiles: Int = 256, maximumBytes: Int = 65_536) {
        self.path = path
        self.suffix = suffix
        self.trustedOwners = trustedOwners
        self.maximumFiles = maximumFiles
        self.maximumBytes = maximumBytes
    }

    /// The matching files, by name; none when the directory does not exist. A file or
    /// directory that fails the ownership rule, too many files or a file too large is an error
    /// (EPERM, EMFILE, EFBIG) naming it: a policy is all read or not used.
    package func read() throws(SystemError) -> [ConfigurationFile] {
        var status = stat()
        guard system_lstat(path, &status) == 0 else {
            if Glibc.errno == ENOENT { return [] }
            throw SystemError.last("lstat", path)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw SystemError(errno: ENOTDIR, call: "configuration directory", argument: path, note: "not a directory (a symbolic link is refused)")
        }
        try checkOwner(status, path)
        var files: [ConfigurationFile] = []
        for name in try names() {
            guard files.count < maximumFiles else {
                throw SystemError(errno: EMFILE, call: "configuration directory", argument: path, note: "more than \(maximumFiles) *\(suffix) files")
            }
            files.append(try readFile(path + "/" + name))
        }
        return files
    }

    /// The names in the directory ending with `suffix`, sorted.
    private func names() throws(SystemError) -> [String] {
        guard let directory = system_opendir(path) else { throw SystemError.last("opendir", path) }
        defer { _ = system_closedir(directory) }
        var names: [String] = []
        while let entry = system_readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), name.hasSuffix(suffix) else { continue }
            names.append(name)
            guard names.count <= maximumFiles else { break }
        }
        return names.sorted()
    }

    private func readFile(_ file: String) throws(SystemError) -> ConfigurationFile {
        let raw: Int32
        do throws(SystemError) {
            raw = try check("open", file) { system_open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        } catch where error.errno == ELOOP {
            // O_NOFOLLOW's answer for a link: a link could point at a file others may write.
            throw SystemError(errno: ELOOP, call: "configuration file", argument: file, note: "a symbolic link; refusing it (copy the file into the directory)")
        }
        let descriptor = FileDescriptor(rawValue: raw)
        defer { try? descriptor.close() }
        var status = stat()
        _ = try check("fstat", file) { system_fstat(descriptor.rawValue, &status) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SystemError(errno: EPERM, call: "configuration file", argument: file, note: "not a regular file; refusing it")
        }
        try checkOwner(status, file)
        return ConfigurationFile(path: file, bytes: try descriptor.readAll(maximumBytes: maximumBytes, path: file))
    }

    private func checkOwner(_ status: stat, _ file: String) throws(SystemError) {
        guard trustedOwners.contains(status.st_uid) else {
            throw SystemError(errno: EPERM, call: "configuration", argument: file, note: "owned by uid \(status.st_uid), not by root; refusing it")
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw SystemError(
                errno: EPERM, call: "configuration", argument: file,
                note: "writable by group or others (mode \(String(status.st_mode & 0o7777, radix: 8))); chmod go-w it")
        }
    }
}
