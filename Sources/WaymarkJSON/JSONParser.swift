/// A strict JSON parser (RFC 8259) with limits, for text from untrusted peers.
///
/// Strict: no comments, no trailing commas, no leading zeros, no unescaped control
/// characters, no duplicate member names, no lone surrogates, valid UTF-8 only, and nothing
/// after the value but whitespace. Bounded: the text's length and the nesting depth are
/// limited, so no input can exhaust memory or the stack. Errors name the byte offset and what
/// was expected there.
package struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted (a bare scalar is depth 0).
    package var maximumDepth: Int
    /// The longest text accepted, in bytes.
    package var maximumLength: Int

    /// Creates a parser with the given limits.
    package init(maximumDepth: Int = 64, maximumLength: Int = 1 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumLength = maximumLength
    }

    /// Parses `bytes` (UTF-8) as one JSON value.
    package func parse(_ bytes: some Collection<UInt8>) throws(JSONError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { parse(buffer: $0) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
        return try result.get()
    }

    /// Parses a string as one JSON value.
    package func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONError> {
        guard buffer.count <= maximumLength else {
            return .failure(JSONError(offset: maximumLength, message: "text longer than \(maximumLength) bytes"))
        }
        var reader = JSONReader(bytes: buffer, maximumDepth: maximumDepth)
        return Result { () throws(JSONError) in try reader.document() }
    }
}
