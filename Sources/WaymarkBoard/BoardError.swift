/// A board file that cannot be used: names the file, the line and key, what is wrong and the
/// fix to apply, such as
/// `Board/pi.toml:14: uart.baud: "fast" is not a baud rate. Fix: set a rate from 4800 to 921600, or "auto".`
public struct BoardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The board file's path.
    public var file: String
    /// The 1-based line, when the problem is on one.
    public var line: Int?
    /// The dotted key (`uart.baud`), or the table for a missing table.
    public var key: String
    /// What is wrong.
    public var problem: String
    /// What to change.
    public var fix: String

    /// Creates an error.
    public init(file: String, line: Int?, key: String, problem: String, fix: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
        self.fix = fix
    }

    /// `FILE:LINE: KEY: PROBLEM. Fix: FIX.`
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return "\(location): \(key): \(problem). Fix: \(fix)."
    }
}
