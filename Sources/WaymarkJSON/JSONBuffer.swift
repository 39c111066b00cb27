/// Builds JSON text directly as UTF-8 bytes, without `String` or Foundation.
///
/// Numbers are printed with a fixed number of decimals (as gpsd prints them), correctly
/// rounded from the `Double`.
package struct JSONBuffer: Sendable {
    /// The bytes written so far.
    package internal(set) var bytes: [UInt8] = []
    var needsComma = false

    /// Creates an empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its storage.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Opens an object.
    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes an object.
    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array.
    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes an array.
    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name given at run time, escaped (the value must follow).
    package mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name (the value must follow).
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string member.
    package mutating func member(_ name: StaticString, _ value: StaticString) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a string member from arbitrary text, escaping as JSON requires.
    package mutating func member(_ name: StaticString, text: String) {
        key(name)
        string(text)
    }

    /// Writes an escaped string value.
    package mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes an integer member.
    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        integer(value)
    }

    /// Writes a Boolean member.
    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        literal(value ? "true" : "false")
    }

    /// Writes a literal value (`true`, `false`, `null`).
    mutating func literal(_ text: StaticString) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        needsComma = true
    }

    /// Writes a number member with `decimals` digits after the point; skips `nil` and
    /// non-finite values (JSON has no NaN).
    package mutating func member(_ name: StaticString, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return }
        key(name)
        fixed(value, decimals: decimals)
    }

    /// Writes an integer value.
    package mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// Writes an integer value.
    package mutating func integer(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendUnsigned(value.magnitude)
        needsComma = true
    }

    /// Writes an unsigned integer value (an identifier: every `UInt64` is written, none traps).
    package mutating func integer(_ value: UInt64) {
        separate()
        appendUnsigned(value)
        needsComma = true
    }

    /// Writes an unsigned integer member.
    package mutating func member(_ name: StaticString, _ value: UInt64) {
        key(name)
        integer(value)
    }

    /// Writes a number value with `decimals` digits after the point.
    package mutating func fixed(_ value: Double, decimals: Int) {
        separate()
        let scale = DecimalPowers.double(decimals)
        var scaled = (abs(value) * scale).rounded(.toNearestOrEven)
        if scaled >= 9.0e18 { scaled = 9.0e18 }
        let units = UInt64(scaled)
        let divisor = UInt64(DecimalPowers.integer(decimals))
        if value < 0 && units != 0 { bytes.append(UInt8(ascii: "-")) }
        appendUnsigned(units / divisor)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = units % divisor
            var digitDivisor = divisor / 10
            while digitDivisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / digitDivisor))
                fraction %= digitDivisor
                digitDivisor /= 10
            }
        }
        needsComma = true
    }

    /// `value` with `decimals` digits after the point, as ``fixed(_:decimals:)`` writes it:
    /// the one fixed-point formatter for text meant for people too; `–` when not finite.
    package static func decimalText(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        var buffer = JSONBuffer()
        buffer.fixed(value, decimals: decimals)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Appends raw, already valid JSON bytes as a value.
    package mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Ends a line (newline-delimited JSON).
    package mutating func newline() {
        bytes.append(0x0A)
        needsComma = false
    }

    /// Ends a line with a carriage return and a newline (gpsd's framing).
    package mutating func carriageReturnNewline() {
        bytes.append(0x0D)
        newline()
    }

    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendUnsigned(_ value: UInt64) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var count = 0
        var remaining = value
        repeat {
            digits[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            count += 1
        } while remaining > 0
        while count > 0 {
            count -= 1
            bytes.append(digits[count])
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Powers of ten for fixed-decimal printing.
enum DecimalPowers {
    static func integer(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    static func double(_ exponent: Int) -> Double {
        Double(integer(exponent))
    }
}
