extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An exact integer.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// A double.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// A Boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, members in the order written.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    /// `null`.
    package init(nilLiteral: ()) { self = .null }
}
