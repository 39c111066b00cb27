/// A JSON value, as parsed by ``JSONParser``: for reading. Messages are written by streaming
/// into ``JSONBuffer``; ``JSONBuffer/value(_:)`` writes a parsed value back, which is how the
/// parser and the writer are checked against each other.
///
/// Numbers keep what the text said: an integral literal that fits is an exact ``integer``,
/// anything else (a fraction, an exponent, or beyond `Int64`) is a ``double``.
package enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits `Int64`, exactly.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in the order they were written.
    case object(JSONObject)

    /// The number as a `Double`, for either kind of number; `nil` for other values.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The ``integer``; `nil` otherwise. One rule for integers everywhere: an integer is
    /// written as one (digits and an optional minus sign), so `1.0` and `1e2` are numbers but
    /// not integers, wherever an integer is expected.
    package var int64Value: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The string, or `nil` for other values.
    package var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The Boolean, or `nil` for other values.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The array, or `nil` for other values.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The object, or `nil` for other values.
    package var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The JSON name of the value's type (`"object"`, `"number"`, …), for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
