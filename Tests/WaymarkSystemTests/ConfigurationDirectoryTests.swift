import Glibc
import Testing
import WaymarkSystem

@Suite("an operator's configuration directory")
struct ConfigurationDirectoryTests {
    /// A fresh mode-0755 directory owned by this process's user.
    final class Directory {
        let path: String
        init() {
            var template = Array("/tmp/waymark-appsd-XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template)!)
            chmod(path, 0o755)
        }
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) {
            let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, mode)
            _ = Glibc.write(fd, text, text.utf8.count)
            close(fd)
            chmod(path + "/" + name, mode)
        }
        deinit {
            if let directory = opendir(path) {
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != ".", name != ".." { unlink(path + "/" + name) }
                }
                closedir(directory)
            }
            rmdir(path)
        }
    }

    func reader(_ directory: Directory, maximumFiles: Int = 256, maximumBytes: Int = 65_536) -> ConfigurationDirectory {
        ConfigurationDirectory(
            path: directory.path, suffix: ".toml", trustedOwners: [geteuid()], maximumFiles: maximumFiles, maximumBytes: maximumBytes)
    }

    @Test("the *.toml files by name; others and hidden ones skipped; no directory is no policy")
    func reads() throws {
        let directory = Directory()
        directory.write("b.toml", "[[app]]\nuid = 2\n")
        directory.write("a.toml", "[[app]]\nuid = 1\n")
        directory.write("notes.txt", "x")
        directory.write(".hidden.toml", "x")
        let files = try reader(directory).read()
        #expect(files.map(\.path) == [directory.path + "/a.toml", directory.path + "/b.toml"])
        #expect(files[0].bytes == Array("[[app]]\nuid = 1\n".utf8))
        #expect(try ConfigurationDirectory(path: directory.path + "/missing", suffix: ".toml").read().isEmpty)
    }

    @Test("a file or directory others could write, another owner, a symbolic link, too many or too large files are refused")
    func refusals() throws {
        let writable = Directory()
        writable.write("a.toml", "", mode: 0o664)
        #expect(throws: SystemError.self) { try reader(writable).read() }

        let open = Directory()
        chmod(open.path, 0o777)
        #expect(throws: SystemError.self) { try reader(open).read() }

        let foreign = Directory()
        foreign.write("a.toml", "")
        #expect(throws: SystemError.self) {
            try ConfigurationDirectory(path: foreign.path, suffix: ".toml", trustedOwners: [geteuid() &+ 1]).read()
        }

        let linked = Directory()
        linked.write("target", "")
        symlink(linked.path + "/target", linked.path + "/a.toml")
        let link = #expect(throws: SystemError.self) { try reader(linked).read() }
        // Said as what it is, not as "too many levels of symbolic links".
        #expect(link?.note?.contains("a symbolic link") == true, "\(String(describing: link))")

        let many = Directory()
        for index in 0..<3 { many.write("\(index).toml", "") }
        #expect(throws: SystemError.self) { try reader(many, maximumFiles: 2).read() }
        #expect(try reader(many, maximumFiles: 3).read().count == 3)

        let large = Directory()
        large.write("a.toml", String(repeating: "#", count: 101))
        #expect(throws: SystemError.self) { try reader(large, maximumBytes: 100).read() }
    }
}
