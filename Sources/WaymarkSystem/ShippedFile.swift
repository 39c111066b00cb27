import Glibc

/// Finds the files Waymark ships (board files in `Board/`, scenarios in `Scenarios/`) by a
/// short name, the same way in every program and whatever the working directory: next to the
/// running executable, in an installed tree (`PREFIX/bin/…` beside `PREFIX/share/waymark/`)
/// or a source tree (`ROOT/.build/…/debug/…` below `ROOT/`).
package enum ShippedFile {
    /// What a `--board` or `--scenario` argument names: `name` itself when it is a path (it
    /// has a `/` or the extension) or a readable regular file (a directory of that name in the
    /// working directory does not hide a shipped file); otherwise `directory/name.fileExtension`
    /// in the first tree above the executable that has it. When nothing has it, `name` if the
    /// working directory has such a file (which the user cannot read: the error that follows
    /// says so), else the path relative to the working directory, so the error that follows
    /// names what was looked for.
    package static func resolve(_ name: String, directory: String, extension fileExtension: String) -> String {
        let suffix = "." + fileExtension
        if name.contains("/") || name.hasSuffix(suffix) || isReadableFile(name) { return name }
        let file = "\(directory)/\(name)\(suffix)"
        if let shipped = trees().lazy.map({ "\($0)/\(file)" }).first(where: FileSystem.isReadable) { return shipped }
        return (try? FileStatus(path: name))?.kind == .regular ? name : file
    }

    /// The scenario at `path` (a `--scenario` resolved), read whole up to `maximumBytes`;
    /// failing, an error that also names the shipped scenarios to choose from.
    package static func readScenario(_ path: String, maximumBytes: Int) throws(UnreadableScenario) -> [UInt8] {
        do {
            return try FileDescriptor.readFile(path, maximumBytes: maximumBytes)
        } catch {
            throw UnreadableScenario(path: path, reason: error, shipped: names(directory: "Scenarios", extension: "scenario"))
        }
    }

    private static func isReadableFile(_ path: String) -> Bool {
        FileSystem.isReadable(path) && (try? FileStatus(path: path))?.kind == .regular
    }

    /// The short names of the shipped files in `directory` (`desk-day` for
    /// `Scenarios/desk-day.scenario`), sorted, from the nearest tree that has any.
    package static func names(directory: String, extension fileExtension: String) -> [String] {
        let suffix = "." + fileExtension
        for tree in trees() {
            let names = FileSystem.entries(of: "\(tree)/\(directory)").filter { $0.hasSuffix(suffix) && $0 != suffix }
            if !names.isEmpty { return names.map { String($0.dropLast(suffix.count)) }.sorted() }
        }
        return []
    }

    /// The trees a shipped file may be in, nearest first: for each folder above the
    /// executable, the folder itself and its `share/waymark`.
    static func trees() -> [String] {
        guard var folder = executablePath().map(parent) else { return [] }
        var trees: [String] = []
        while !folder.isEmpty {
            trees += [folder + "/share/waymark", folder]
            folder = parent(folder)
        }
        return trees
    }

    /// The running executable's path, symbolic links resolved (readlink(2) of /proc/self/exe).
    package static func executablePath() -> String? {
        var path = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}

/// A scenario that could not be read, and the shipped ones there are.
package struct UnreadableScenario: Error, CustomStringConvertible {
    /// The path looked for.
    package let path: String
    /// Why it could not be read.
    package let reason: SystemError
    /// The short names of the shipped scenarios.
    package let shipped: [String]

    package var description: String {
        let choice = shipped.isEmpty ? "no shipped scenario was found" : "the shipped ones are " + shipped.joined(separator: ", ")
        return "cannot read the scenario '\(path)': \(reason); \(choice)"
    }
}
