import WaymarkJSON

/// One message per line: JSON text without newlines, then `\n`.
enum MessageLine {
    /// The parser with the protocol's limits.
    static let parser = JSONParser(maximumDepth: ProtocolLimits.maximumDepth, maximumLength: ProtocolLimits.maximumLineLength)

    /// Parses a line (without its newline) as a JSON object's members.
    static func fields(_ line: some Collection<UInt8>) throws(ProtocolError) -> Fields {
        let value: JSONValue
        do throws(JSONError) {
            value = try parser.parse(line)
        } catch {
            throw ProtocolError(.malformedJSON, error.description)
        }
        return try Fields(value, at: "")
    }

    /// The bytes `write` writes, followed by a newline.
    static func bytes(_ write: (inout JSONBuffer) -> Void) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 256)
        write(&buffer)
        buffer.newline()
        return buffer.bytes
    }
}
