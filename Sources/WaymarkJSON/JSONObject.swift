/// A JSON object: members in the order they were added, looked up by name.
///
/// Names are unique: the parser rejects duplicates, and setting a name again replaces its
/// value in place.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// The member names in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with `elements` in order (a later duplicate name replaces the earlier value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// The members in order.
    public var members: [(key: String, value: JSONValue)] {
        keys.map { ($0, values[$0]!) }
    }

    /// The value of the member `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }
}
