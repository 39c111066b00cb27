import WaymarkJSON
import WaymarkLocation

/// Reads the members of one JSON object of a message, with errors that name the member's
/// path (`update.location.latitude: expected a number, found a string`). Members it is not
/// asked for are ignored, so newer peers may add some.
struct Fields {
    let object: JSONObject
    /// Where the object is in the message, such as `update.location`; empty at the top.
    let path: String

    /// The object in `value`, found at `path`.
    init(_ value: JSONValue, at path: String) throws(ProtocolError) {
        guard let object = value.objectValue else {
            throw ProtocolError(.invalidMessage, "\(path.isEmpty ? "message" : path): expected an object, found \(describe(value))")
        }
        self.object = object
        self.path = path
    }

    /// The value of `key`, or `nil` when it is missing or `null`.
    func optional<Value>(_ key: String, _ kind: String, _ convert: (JSONValue) -> Value?) throws(ProtocolError) -> Value? {
        guard let value = object[key], value != .null else { return nil }
        guard let converted = convert(value) else { throw mismatch(key, kind, value) }
        return converted
    }

    /// The value of `key`, which must be there.
    func require<Value>(_ key: String, _ kind: String, _ convert: (JSONValue) -> Value?) throws(ProtocolError) -> Value {
        guard let value = try optional(key, kind, convert) else {
            throw ProtocolError(.invalidMessage, "\(name(key)): missing (expected \(kind))")
        }
        return value
    }

    func double(_ key: String) throws(ProtocolError) -> Double {
        try require(key, "a number") { $0.doubleValue }
    }

    /// A number within `range` (a coordinate): one outside is no such value.
    func double(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double {
        try require(key, "a number from \(range.lowerBound) to \(range.upperBound)") { $0.doubleValue.flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A number the writer rounds to `decimals` digits (`JSONBuffer.number(_:roundedTo:)`),
    /// rounded alike: a message read writes back as it was read.
    func double(_ key: String, roundedTo decimals: Int) throws(ProtocolError) -> Double {
        try double(key).rounded(toDecimals: decimals)
    }

    func optionalDouble(_ key: String) throws(ProtocolError) -> Double? {
        try optional(key, "a number") { $0.doubleValue }
    }

    func integer(_ key: String) throws(ProtocolError) -> Int {
        try require(key, "an integer") { $0.int64Value.flatMap { Int(exactly: $0) } }
    }

    func optionalInteger(_ key: String) throws(ProtocolError) -> Int? {
        try optional(key, "an integer") { $0.int64Value.flatMap { Int(exactly: $0) } }
    }

    func identifier(_ key: String) throws(ProtocolError) -> UInt64 {
        try require(key, "an integer from 0 to \(Int64.max)") { $0.int64Value.flatMap { UInt64(exactly: $0) } }
    }

    func optionalIdentifier(_ key: String) throws(ProtocolError) -> UInt64? {
        try optional(key, "an integer from 0 to \(Int64.max)") { $0.int64Value.flatMap { UInt64(exactly: $0) } }
    }

    func string(_ key: String) throws(ProtocolError) -> String {
        try require(key, "a string") { $0.stringValue }
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        try optional(key, "a string") { $0.stringValue }
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool {
        try require(key, "a boolean") { $0.boolValue }
    }

    /// The array member `key`, each element an object that `read` decodes.
    func objects<Element>(_ key: String, _ read: (Fields) throws(ProtocolError) -> Element) throws(ProtocolError) -> [Element] {
        let values = try require(key, "an array") { $0.arrayValue }
        var elements: [Element] = []
        for (index, value) in values.enumerated() { elements.append(try read(Fields(value, at: "\(name(key))[\(index)]"))) }
        return elements
    }

    func strings(_ key: String) throws(ProtocolError) -> [String] {
        let values = try require(key, "an array of strings") { $0.arrayValue }
        var strings: [String] = []
        for (index, value) in values.enumerated() {
            guard let text = value.stringValue else { throw mismatch("\(key)[\(index)]", "a string", value) }
            strings.append(text)
        }
        return strings
    }

    /// The member `key`, an ISO 8601 UTC timestamp.
    func timestamp(_ key: String) throws(ProtocolError) -> Timestamp {
        let text = try string(key)
        guard let timestamp = Timestamp(protocolText: text) else {
            throw invalid(key, "expected ISO 8601 UTC such as 2024-06-01T12:00:00.000Z, found \"\(text)\"")
        }
        return timestamp
    }

    /// The member `key`, an ISO 8601 UTC timestamp, or `nil` when it is missing or `null`.
    func optionalTimestamp(_ key: String) throws(ProtocolError) -> Timestamp? {
        try optionalString(key) == nil ? nil : try timestamp(key)
    }

    /// The member `key` as an object of its own.
    func fields(_ key: String) throws(ProtocolError) -> Fields {
        try Fields(try require(key, "an object") { $0.objectValue.map(JSONValue.object) }, at: name(key))
    }

    /// The member `key` as an object, or `nil` when it is missing or `null`.
    func optionalFields(_ key: String) throws(ProtocolError) -> Fields? {
        guard let value = try optional(key, "an object", { $0.objectValue.map(JSONValue.object) }) else { return nil }
        return try Fields(value, at: name(key))
    }

    /// The member `key`, a string naming a value of `Value` in the protocol.
    func named<Value: ProtocolNamed>(_ key: String, as type: Value.Type) throws(ProtocolError) -> Value {
        guard let value = try optionalNamed(key, as: type) else {
            throw ProtocolError(.invalidMessage, "\(name(key)): missing (expected a string)")
        }
        return value
    }

    /// The member `key`, a string naming a value of `Value`, or `nil` when missing or `null`.
    func optionalNamed<Value: ProtocolNamed>(_ key: String, as type: Value.Type) throws(ProtocolError) -> Value? {
        guard let text = try optionalString(key) else { return nil }
        guard let value = Value(protocolName: text) else {
            let names = Value.everyValue.map(\.protocolName).joined(separator: ", ")
            throw invalid(key, "unknown value \"\(text)\" (expected one of \(names))")
        }
        return value
    }

    /// An error about the member `key`.
    func invalid(_ key: String, _ problem: String) -> ProtocolError {
        ProtocolError(.invalidMessage, "\(name(key)): \(problem)")
    }

    private func mismatch(_ key: String, _ kind: String, _ value: JSONValue) -> ProtocolError {
        invalid(key, "expected \(kind), found \(describe(value))")
    }

    private func name(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}

/// `a string`, `an object`, … for error messages.
private func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .integer, .double: "a number"
    case .array, .object: "an \(value.typeName)"
    default: "a \(value.typeName)"
    }
}
