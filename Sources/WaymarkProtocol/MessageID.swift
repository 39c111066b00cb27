package import WaymarkJSON

/// The `id` a client gives a request, echoed verbatim in its reply: an integer or a string.
package enum MessageID: Hashable, Sendable, CustomStringConvertible {
    /// An integer id.
    case number(Int64)
    /// A string id.
    case string(String)

    /// The id in `value`, or `nil` if it is neither an integer nor a string.
    package init?(json value: JSONValue) {
        switch value {
        case .integer(let number): self = .number(number)
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    /// The id as JSON.
    package var json: JSONValue {
        switch self {
        case .number(let number): .integer(number)
        case .string(let text): .string(text)
        }
    }

    package var description: String { json.jsonText }
}
