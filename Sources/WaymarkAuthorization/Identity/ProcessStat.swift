/// Whether a process runs at a terminal, from the text of its `/proc/PID/stat` (proc(5)).
package enum ProcessStat {
    /// Whether the process is in the foreground of a terminal: it has a controlling terminal
    /// (`tty_nr` not 0) and its process group is that terminal's foreground group (`tpgid`).
    /// That is a command a person runs at a shell; a service has no terminal, and a job sent
    /// to the background (`&`) is not the foreground group. False for anything unreadable.
    /// The command name (`comm`, in parentheses) is the process's own choice and may hold
    /// spaces and parentheses: the fields are read after its last `)`.
    package static func isInTerminalForeground(stat bytes: [UInt8]) -> Bool {
        guard let end = bytes.lastIndex(of: UInt8(ascii: ")")) else { return false }
        // After the name: state ppid pgrp session tty_nr tpgid …
        let fields = bytes[(end + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 7)
        guard fields.count > 5, let group = number(fields[2]), let terminal = number(fields[4]), let foreground = number(fields[5])
        else { return false }
        return terminal != 0 && foreground > 0 && foreground == group
    }

    /// A decimal field (at most 20 bytes, so no overflow is parsed).
    private static func number(_ field: ArraySlice<UInt8>) -> Int64? {
        guard field.count <= 20 else { return nil }
        return Int64(String(decoding: field, as: UTF8.self))
    }
}
