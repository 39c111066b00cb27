/// A board file that cannot be used: names the file, the line and key, what is wrong and the
/// fix to apply, such as
/// `Board/pi.toml:14: uart.baud: "fast" is not a baud rate. Fix: set a rate from 4800 to 921600, or "auto".`
package struct BoardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The board file's path.
    package var file: String
    /// The 1-based line, when the problem is on one.
    package var line: Int?
    /// The dotted key (`uart.baud`), or the table for a missing table.
    package var key: String
    /// What is wrong.
    package var problem: String
    /// What to change.
    package var fix: String

    /// Creates an error.
    package init(file: String, line: Int?, key: String, problem: String, fix: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
        self.fix = fix
    }

    /// `FILE:LINE: KEY: PROBLEM. Fix: FIX.`
    package var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return "\(location): \(key): \(problem). Fix: \(fix)."
    }
}
