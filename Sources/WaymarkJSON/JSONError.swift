/// Why a text is not acceptable JSON: where (a byte offset from the start of the text) and
/// what was expected there.
///
/// Its description reads like `byte 17: expected ',' or '}' after an object member, found 'x'`.
package struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the offending byte from the start of the text.
    package var offset: Int
    /// What was wrong or expected, such as `expected ':' after an object key, found '}'`.
    package var message: String

    /// Creates an error at `offset`.
    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "byte \(offset): \(message)" }
}
