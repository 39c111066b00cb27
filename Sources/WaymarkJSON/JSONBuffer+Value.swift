extension JSONBuffer {
    /// Writes a number in the shortest form that reads back as the same `Double`; a
    /// non-finite value (JSON has no NaN or infinity) is written as `null`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw(Array("null".utf8))
            return
        }
        raw(Array(value.description.utf8))
    }

    /// Writes a value: objects keep their members' order; strings are escaped.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw(Array("null".utf8))
        case .bool(let flag): raw(Array((flag ? "true" : "false").utf8))
        case .integer(let integer): raw(Array(String(integer).utf8))
        case .double(let double): number(double)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for (name, member) in object.members {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    public var jsonText: String {
        var buffer = JSONBuffer(capacity: 128)
        buffer.value(self)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
