package import WaymarkJSON

/// The `id` a client gives a request, echoed verbatim in its reply: an integer or a string.
package enum MessageID: Hashable, Sendable, CustomStringConvertible {
    /// An integer id.
    case number(Int64)
    /// A string id.
    case string(String)

    /// The id in `value`, or `nil` if it is neither an integer nor a string of at most
    /// ``ProtocolLimits/maximumIDLength`` bytes.
    package init?(json value: JSONValue) {
        switch value {
        case .integer(let number): self = .number(number)
        case .string(let text) where text.utf8.count <= ProtocolLimits.maximumIDLength: self = .string(text)
        default: return nil
        }
    }

    /// Writes the id: a number or an escaped string.
    func write(to buffer: inout JSONBuffer) {
        switch self {
        case .number(let number): buffer.integer(number)
        case .string(let text): buffer.string(text)
        }
    }

    /// The id as JSON text.
    package var description: String {
        var buffer = JSONBuffer(capacity: 32)
        write(to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
