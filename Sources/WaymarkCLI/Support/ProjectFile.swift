import Glibc

/// Finds the project's shipped files (scenarios, board files) given a path or a short name.
enum ProjectFile {
    /// `name` itself if it is a readable file; otherwise `directory/name.extension` in the
    /// current directory, next to the executable's build folder, or in the installed data.
    static func resolve(_ name: String, directory: String, extension fileExtension: String) -> String {
        if access(name, R_OK) == 0 { return name }
        let file = "\(directory)/\(name).\(fileExtension)"
        var candidates = [file, "/usr/local/share/waymark/\(file)"]
        if let root = executableRoot() { candidates.insert("\(root)/\(file)", at: 1) }
        return candidates.first { access($0, R_OK) == 0 } ?? file
    }

    /// The project root when running from `.build/<configuration>/`.
    private static func executableRoot() -> String? {
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return executable.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    }
}
