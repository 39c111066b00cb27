extension JSONBuffer {
    /// Writes a number in the shortest form that reads back as the same `Double`; a
    /// non-finite value (JSON has no NaN or infinity) is written as `null`.
    package mutating func number(_ value: Double) {
        guard value.isFinite else {
            null()
            return
        }
        separate()
        bytes.append(contentsOf: value.description.utf8)
        needsComma = true
    }

    /// Writes a number member in the shortest form that reads back as the same `Double`.
    package mutating func member(_ name: StaticString, number value: Double) {
        key(name)
        number(value)
    }

    /// Writes a number rounded to `decimals` digits after the point, then in the shortest form
    /// that reads back as the rounded `Double` (`1118.1`, not `1118.1000000000001`); a
    /// non-finite value as `null`.
    package mutating func number(_ value: Double, roundedTo decimals: Int) {
        number(value.rounded(toDecimals: decimals))
    }

    /// Writes a member rounded as ``number(_:roundedTo:)`` writes it.
    package mutating func member(_ name: StaticString, number value: Double, roundedTo decimals: Int) {
        key(name)
        number(value, roundedTo: decimals)
    }

    /// Writes an array member of strings, escaped.
    package mutating func member(_ name: StaticString, strings: some Sequence<String>) {
        key(name)
        beginArray()
        for text in strings { string(text) }
        endArray()
    }

    /// Writes `null`.
    package mutating func null() {
        literal("null")
    }

    /// Writes a string whose bytes `write` appends and which need no escaping (ASCII letters,
    /// digits and punctuation other than `"` and `\`).
    package mutating func string(unescaped write: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a parsed value back: objects keep their members' order; strings are escaped.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): literal(flag ? "true" : "false")
        case .integer(let integer): self.integer(integer)
        case .double(let double): number(double)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.storage {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    package var jsonText: String {
        var buffer = JSONBuffer(capacity: 128)
        buffer.value(self)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}

extension Double {
    /// The value rounded to `decimals` digits after the point, as
    /// ``JSONBuffer/number(_:roundedTo:)`` writes it: a reader of such a field rounds the same
    /// way, so that what it read writes back as it was read. Itself when it is not finite or
    /// the rounding overflows.
    package func rounded(toDecimals decimals: Int) -> Double {
        guard isFinite else { return self }
        let scale = DecimalPowers.double(decimals)
        let rounded = (self * scale).rounded() / scale
        return rounded.isFinite ? rounded : self
    }
}
