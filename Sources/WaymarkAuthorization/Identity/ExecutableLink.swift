/// The program a process runs, from the text of its `/proc/PID/exe` link (readlink(2)).
package enum ExecutableLink {
    /// The longest path accepted (Linux's `PATH_MAX`).
    package static let maximumLength = 4_096

    /// The kernel appends this when the file was removed or replaced after the process started
    /// it (a package upgrade): the process still runs the program that had that path.
    static let deletedSuffix = " (deleted)"

    /// The absolute path the link names, without the kernel's ` (deleted)` mark; nil for an
    /// empty, relative, overlong or non-UTF-8 link or one with a NUL byte.
    package static func path(fromLink bytes: [UInt8]) -> String? {
        guard bytes.count <= maximumLength, bytes.first == UInt8(ascii: "/"), !bytes.contains(0),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let path = text.hasSuffix(deletedSuffix) ? String(text.dropLast(deletedSuffix.count)) : text
        return path.isEmpty ? nil : path
    }
}
