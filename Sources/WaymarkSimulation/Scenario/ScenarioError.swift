/// A mistake in a scenario file: where it is, what is wrong and what to write instead.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name.
    public var file: String
    /// The line (1-based).
    public var line: Int
    /// What is wrong.
    public var message: String
    /// What to write instead.
    public var suggestion: String

    /// Creates an error.
    public init(file: String, line: Int, message: String, suggestion: String) {
        self.file = file
        self.line = line
        self.message = message
        self.suggestion = suggestion
    }

    /// `file:line: message; suggestion`, as compilers print it.
    public var description: String { "\(file):\(line): \(message); \(suggestion)" }
}
