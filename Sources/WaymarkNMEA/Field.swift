/// One comma-separated field of a sentence: a view of its bytes, with exact conversions (the
/// plain grammar, the reference of ``FieldReader``'s fast paths).
///
/// Every conversion returns `nil` for an empty field (absent data). A non-empty field that
/// does not hold what the sentence's grammar requires reports `isMalformed`, so the parser
/// can reject the sentence instead of using a half-read value.
struct Field {
    /// The field's bytes, without the separating commas.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Creates a field over the given bytes.
    @inlinable
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// An empty field (what reads past the last field return).
    @inlinable
    static var empty: Field { Field(UnsafeBufferPointer(start: nil, count: 0)) }

    /// Whether the field has no bytes.
    @inlinable
    var isEmpty: Bool { bytes.isEmpty }

    /// The field's first byte, for single-character fields such as status and hemisphere.
    @inlinable
    var character: UInt8? { bytes.isEmpty ? nil : bytes[0] }

    /// The field as text (allocates; not for hot paths).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Parses a decimal number with an optional sign and fraction, keeping every printed digit.
    /// Returns `.malformed` for anything else (letters, two points, more than 18 digits).
    @inlinable
    var decimal: Parsed<NMEADecimal> {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return .absent }
        var index = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") || base[0] == UInt8(ascii: "+") {
            negative = base[0] == UInt8(ascii: "-")
            index = 1
        }
        var significand: Int64 = 0
        var digits = 0
        var scale: UInt8 = 0
        var sawPoint = false
        while index < count {
            let byte = base[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                significand = significand &* 10 &+ Int64(digit)
                digits &+= 1
                if sawPoint { scale &+= 1 }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return .malformed
            }
            index &+= 1
        }
        guard digits > 0, digits <= 18 else { return .malformed }
        return .value(NMEADecimal(significand: negative ? -significand : significand, scale: scale))
    }

    /// Parses an unsigned integer of at most 9 digits.
    @inlinable
    var unsigned: Parsed<Int> { unsigned(allowZeroFraction: false) }

    /// Parses an unsigned integer that may carry a fraction of zeros (`"05"`, `"5.0"`), as some
    /// receivers print counts and identifiers.
    @inlinable
    var integer: Parsed<Int> { unsigned(allowZeroFraction: true) }

    @inlinable
    func unsigned(allowZeroFraction: Bool) -> Parsed<Int> {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return .absent }
        var index = 0
        var value = 0
        while index < count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            index &+= 1
        }
        guard index > 0, index <= 9 else { return .malformed }
        if index < count {
            guard allowZeroFraction, base[index] == UInt8(ascii: ".") else { return .malformed }
            for fraction in (index + 1)..<count where base[fraction] != UInt8(ascii: "0") { return .malformed }
        }
        return .value(value)
    }

    /// Parses a single hexadecimal digit (NMEA 4.10 signal ids run 1–F).
    @inlinable
    var hexDigit: Parsed<Int> {
        guard let first = character else { return .absent }
        guard bytes.count == 1, let value = Field.hexValue(first) else { return .malformed }
        return .value(value)
    }

    /// The value of an uppercase hexadecimal digit.
    @inlinable @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte &- UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// Parses a time of day `hhmmss` with an optional fraction of up to 9 digits.
    @inlinable
    var timeOfDay: Parsed<TimeOfDay> {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return .absent }
        guard count >= 6, count != 7, count <= 16,
            let hours = Field.twoDigits(base), let minutes = Field.twoDigits(base + 2),
            let seconds = Field.twoDigits(base + 4),
            hours < 24, minutes < 60, seconds <= 60
        else { return .malformed }
        var nanoseconds: Int64 = 0
        if count > 6 {
            guard base[6] == UInt8(ascii: ".") else { return .malformed }
            var multiplier: Int64 = 100_000_000
            for index in 7..<count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return .malformed }
                nanoseconds &+= Int64(digit) &* multiplier
                multiplier /= 10
            }
        }
        return .value(TimeOfDay(hour: hours, minute: minutes, second: seconds, nanoseconds: Int32(nanoseconds)))
    }

    /// Parses a date `ddmmyy` (or `ddmmyyyy`, which some receivers print).
    @inlinable
    var date: Parsed<NMEADate> {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return .absent }
        guard count == 6 || count == 8,
            let day = Field.twoDigits(base), let month = Field.twoDigits(base + 2),
            let yearHigh = Field.twoDigits(base + 4)
        else { return .malformed }
        var year = yearHigh
        if count == 8 {
            guard let yearLow = Field.twoDigits(base + 6) else { return .malformed }
            year = yearHigh * 100 + yearLow
        }
        guard (1...31).contains(day), (1...12).contains(month) else { return .malformed }
        return .value(NMEADate(day: day, month: month, year: year, hasCentury: count == 8))
    }

    /// Parses a latitude or longitude printed as `ddmm.mmmm` or `dddmm.mmmm` with its
    /// hemisphere field (`N`/`S` or `E`/`W`).
    @inlinable
    func coordinate(hemisphere: Field, maximumDegrees: Int64) -> Parsed<NMEACoordinate> {
        let value: NMEADecimal
        switch decimal {
        case .absent: return .absent
        case .malformed: return .malformed
        case .value(let number): value = number
        }
        guard value.significand >= 0, let side = hemisphere.character else { return .malformed }
        let negative: Bool
        switch side {
        case UInt8(ascii: "N"), UInt8(ascii: "E"): negative = false
        case UInt8(ascii: "S"), UInt8(ascii: "W"): negative = true
        default: return .malformed
        }
        let unit = NMEADecimal.powerOfTenInt(value.scale)
        let minutesScaled = value.significand % (100 &* unit)
        let degrees = value.significand / (100 &* unit)
        guard minutesScaled < 60 &* unit, degrees < maximumDegrees || (degrees == maximumDegrees && minutesScaled == 0)
        else { return .malformed }
        return .value(NMEACoordinate(printed: value, isNegative: negative))
    }

    @inlinable
    static func twoDigits(_ pointer: UnsafePointer<UInt8>) -> Int? {
        let high = pointer[0] &- UInt8(ascii: "0")
        let low = pointer[1] &- UInt8(ascii: "0")
        guard high < 10, low < 10 else { return nil }
        return Int(high) * 10 + Int(low)
    }
}

/// The outcome of reading one field: a value, nothing (an empty field), or malformed content.
enum Parsed<Value> {
    /// The field was empty.
    case absent
    /// The field held a valid value.
    case value(Value)
    /// The field held something the grammar does not allow.
    case malformed
}

extension Parsed: Sendable where Value: Sendable {}

extension Parsed {
    /// The value, or `nil` for an empty or malformed field (for a field that may hold
    /// something else, which is then not an error).
    @inlinable
    var value: Value? {
        if case .value(let value) = self { value } else { nil }
    }
}
