/// A failure the user can act on, printed as `Error: <message>` with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }
}
