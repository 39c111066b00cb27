/// A mistake in a scenario file: where it is, what is wrong and what to write instead.
package struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name.
    package var file: String
    /// The line (1-based).
    package var line: Int
    /// What is wrong.
    package var message: String
    /// What to write instead.
    package var suggestion: String

    /// Creates an error.
    package init(file: String, line: Int, message: String, suggestion: String) {
        self.file = file
        self.line = line
        self.message = message
        self.suggestion = suggestion
    }

    /// `file:line: message; suggestion`, as compilers print it.
    package var description: String { "\(file):\(line): \(message); \(suggestion)" }
}
