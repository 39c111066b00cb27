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

    /// The bytes of `value` followed by a newline.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 256)
        buffer.value(value)
        buffer.newline()
        return buffer.bytes
    }

    /// `object` without its `null` members (absent and `null` mean the same in the protocol).
    static func compact(_ object: JSONObject) -> JSONObject {
        var compacted = JSONObject()
        for (key, value) in object.members where value != .null { compacted[key] = value }
        return compacted
    }
}
