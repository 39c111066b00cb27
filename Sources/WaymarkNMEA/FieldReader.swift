/// Walks the comma-separated fields of a sentence body, converting each as it goes, and
/// remembers whether any field was malformed.
///
/// The typed readers scan and convert in one pass over the bytes (no separate search for
/// the comma), which is what keeps a full typed parse near a few nanoseconds per field.
/// This is the one seam of the fast paths (words of eight bytes, fixed-width runs): each
/// steps aside, leaving the position unchanged, wherever it does not apply, and the plain
/// grammar of ``Field`` reads the field instead. Internal: it walks by pointer the body that
/// ``NMEAParser/parse(_:into:)`` holds for the call, and lives no longer than that call.
struct FieldReader {
    @usableFromInline var position: UnsafePointer<UInt8>
    @usableFromInline let end: UnsafePointer<UInt8>
    /// Where the body starts.
    @usableFromInline let start: UnsafePointer<UInt8>
    /// Whether a field read through one of the typed accessors was malformed.
    var isMalformed = false

    /// Creates a reader positioned at the first field after the address field.
    @inlinable
    init(body: UnsafeBufferPointer<UInt8>) {
        self.init(body: body, skipping: 0)
        _ = next()  // the address field
    }

    /// Creates a reader positioned `count` bytes into the body, which the caller has checked
    /// holds that many (the parser skips the address field it has already read).
    @inlinable
    init(body: UnsafeBufferPointer<UInt8>, skipping count: Int) {
        if let base = body.baseAddress {
            position = base + count
            start = base
            end = base + body.count
        } else {
            position = FieldReader.nothing
            start = FieldReader.nothing
            end = FieldReader.nothing
        }
    }

    /// Where an empty body "starts": never dereferenced, since it is also where it ends.
    @usableFromInline
    static var nothing: UnsafePointer<UInt8> { UnsafePointer(bitPattern: 1)! }

    /// Whether every field has been read.
    @inlinable
    var isAtEnd: Bool { position > end }

    /// The next field; an empty field once the sentence has no more.
    @inlinable
    mutating func next() -> Field {
        guard position <= end else { return .empty }
        let start = position
        var cursor = position
        while cursor < end && cursor.pointee != UInt8(ascii: ",") {
            cursor += 1
        }
        position = cursor + 1
        return Field(UnsafeBufferPointer(start: start, count: cursor - start))
    }

    /// How many fields are left to read (an empty trailing field counts).
    @inlinable
    var remainingFieldCount: Int {
        guard position <= end else { return 0 }
        var count = 1
        var cursor = position
        // Sixteen bytes at a time, then eight.
        while end - cursor >= 16 {
            let block = UnsafeRawPointer(cursor).loadUnaligned(as: SIMD16<UInt8>.self) ^ 0x2C
            // A comma's lane is zero: its top bit is set in `(x - 1) & ~x`, then moved to 1.
            let commas = unsafeBitCast(((block &- 1) & ~block) &>> 7, to: SIMD2<UInt64>.self)
            count &+= Int(truncatingIfNeeded: ((commas[0] &+ commas[1]) &* 0x0101_0101_0101_0101) >> 56)
            cursor += 16
        }
        if end - cursor >= 8 {
            count &+= FieldReader.commaCount(word(at: cursor))
            cursor += 8
        }
        let left = end - cursor
        if left > 0 && end - start >= 8 {
            // The body's last eight bytes, shifted down to those from the cursor on (the
            // zeros shifted in are no commas).
            return count &+ FieldReader.commaCount(word(at: end - 8) &>> UInt64(8 &* (8 &- left)))
        }
        while cursor < end {
            if cursor.pointee == UInt8(ascii: ",") { count &+= 1 }
            cursor += 1
        }
        return count
    }

    /// How many of a little-endian word's eight bytes are commas.
    @inlinable @inline(__always)
    static func commaCount(_ word: UInt64) -> Int {
        // Each byte equal to a comma becomes a set top bit, then a 1 in its byte; the
        // multiplication adds the bytes up in the top one.
        let difference = word ^ 0x2C2C_2C2C_2C2C_2C2C
        let nonZero = ((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | difference
        let commaBits = (~(nonZero | 0x7F7F_7F7F_7F7F_7F7F)) >> 7
        return Int(truncatingIfNeeded: (commaBits &* 0x0101_0101_0101_0101) >> 56)
    }

    /// Skips `count` fields.
    @inlinable
    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// Reads a field of type `Value`, recording malformed content.
    @inlinable
    mutating func read<Value>(_ parse: (Field) -> Parsed<Value>) -> Value? {
        accept(parse(next()))
    }

    /// Unwraps an already parsed value, recording malformed content.
    @inlinable
    mutating func accept<Value>(_ parsed: Parsed<Value>) -> Value? {
        switch parsed {
        case .absent: return nil
        case .value(let value): return value
        case .malformed:
            isMalformed = true
            return nil
        }
    }

    /// Reads a single character.
    @inlinable
    mutating func character() -> UInt8? {
        guard position < end else {
            position += 1
            return nil
        }
        let first = position.pointee
        if first == UInt8(ascii: ",") {
            position += 1
            return nil
        }
        _ = next()
        return first
    }

    // MARK: - Fused scan-and-convert readers

    /// Reads an unsigned integer of at most 9 digits; with `allowZeroFraction`, a fraction
    /// of zeros (`"5.0"`) as some receivers print counts.
    @inlinable @inline(__always)
    mutating func unsigned(allowZeroFraction: Bool = false) -> Int? {
        if let plain = plainDigits(atMost: 7) {
            return plain.count > 0 ? DigitWord.longValue(plain.values, digits: plain.count) : nil
        }
        return integerCarefully(maximumDigits: 9, allowZeroFraction: allowZeroFraction)
    }

    /// The careful path of the integer readers: long numbers, fractions, the body's last
    /// field, anything else.
    @usableFromInline @inline(never)
    mutating func integerCarefully(maximumDigits: Int, allowZeroFraction: Bool) -> Int? {
        let end = self.end
        guard position < end, position.pointee != UInt8(ascii: ",") else {
            position += 1
            return nil
        }
        var cursor = position
        var value = 0
        while cursor < end {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            cursor += 1
        }
        let digits = cursor - position
        if allowZeroFraction && cursor < end && cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            while cursor < end && cursor.pointee == UInt8(ascii: "0") { cursor += 1 }
        }
        return finish(at: cursor, valid: digits > 0 && digits <= maximumDigits) ? value : nil
    }

    /// Reads a small count or angle (at most four digits, an optional zero fraction) without
    /// an `Optional`: -1 when the field is empty or malformed (the latter also marks the
    /// sentence malformed). The satellite lists of GSV are made of these.
    @inlinable @inline(__always)
    mutating func smallInteger() -> Int32 {
        if let plain = plainDigits(atMost: 4) {
            return plain.count > 0 ? DigitWord.value(plain.values, digits: plain.count) : -1
        }
        return integerCarefully(maximumDigits: 4, allowZeroFraction: true).map { Int32(truncatingIfNeeded: $0) } ?? -1
    }

    /// The fast path of the integer readers: a field of at most `maximumDigits` digits
    /// (up to 7) followed by a comma, with eight bytes of the body to read from, is stepped
    /// over and its digits returned as ``DigitWord`` values with their count (0 for an empty
    /// field). Anything else, the body's last field among them, returns nil and leaves the
    /// position where it was, for the careful path.
    @inlinable @inline(__always)
    mutating func plainDigits(atMost maximumDigits: Int) -> (values: UInt64, count: Int)? {
        guard end - position >= 8 else { return nil }
        let values = DigitWord.values(word(at: position))
        let count = DigitWord.leadingDigitCount(values)
        guard count <= maximumDigits, DigitWord.byte(values, at: count) == DigitWord.comma else { return nil }
        position += count &+ 1
        return (values, count)
    }

    /// The eight bytes at `pointer`, which the caller has checked lie inside the body, as a
    /// little-endian word (the first byte lowest).
    @inlinable @inline(__always)
    func word(at pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Reads a single hexadecimal digit (NMEA 4.10 signal ids run 1–F).
    @inlinable
    mutating func hexDigit() -> Int? {
        // A digit followed by a comma or the end of the body, read on the spot.
        if end - position >= 1, position + 1 == end || position[1] == UInt8(ascii: ","),
            let value = Field.hexValue(position.pointee)
        {
            position += 2
            return value
        }
        return read { $0.hexDigit }
    }

    /// Reads an integer that may be printed with a zero fraction.
    @inlinable
    mutating func integer() -> Int? { unsigned(allowZeroFraction: true) }

    /// Reads a decimal number with an optional sign and fraction, keeping every printed digit.
    @inlinable
    mutating func decimal() -> NMEADecimal? {
        let end = self.end
        guard position < end, position.pointee != UInt8(ascii: ",") else {
            position += 1
            return nil
        }
        var cursor = position
        let negative = cursor.pointee == UInt8(ascii: "-")
        if negative || cursor.pointee == UInt8(ascii: "+") { cursor += 1 }
        var significand: Int64 = 0
        let digitsStart = cursor
        while cursor < end {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            significand = significand &* 10 &+ Int64(digit)
            cursor += 1
        }
        var digits = cursor - digitsStart
        var scale = 0
        if cursor < end && cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            let fractionStart = cursor
            while cursor < end {
                let digit = cursor.pointee &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                significand = significand &* 10 &+ Int64(digit)
                cursor += 1
            }
            scale = cursor - fractionStart
            digits += scale
        }
        guard finish(at: cursor, valid: digits > 0 && digits <= 18) else { return nil }
        return NMEADecimal(significand: negative ? -significand : significand, scale: UInt8(scale))
    }

    /// Reads a time of day.
    @inlinable
    mutating func timeOfDay() -> TimeOfDay? { fixedWidthTimeOfDay() ?? read { $0.timeOfDay } }

    /// Reads a date.
    @inlinable
    mutating func date() -> NMEADate? { read { $0.date } }

    /// Reads a latitude field and its hemisphere field.
    @inlinable
    mutating func latitude() -> NMEACoordinate? { coordinate(maximumDegrees: 90) }

    /// Reads a longitude field and its hemisphere field.
    @inlinable
    mutating func longitude() -> NMEACoordinate? { coordinate(maximumDegrees: 180) }

    @inlinable
    mutating func coordinate(maximumDegrees: Int64) -> NMEACoordinate? {
        let value = decimal()
        let hemisphere = character()
        guard let value else {
            if hemisphere != nil { isMalformed = true }
            return nil
        }
        let negative: Bool
        switch hemisphere {
        case UInt8(ascii: "N"), UInt8(ascii: "E"): negative = false
        case UInt8(ascii: "S"), UInt8(ascii: "W"): negative = true
        default:
            isMalformed = true
            return nil
        }
        let unit = NMEADecimal.powerOfTenInt(value.scale)
        let minutesScaled = value.significand % (100 &* unit)
        let degrees = value.significand / (100 &* unit)
        guard value.significand >= 0, minutesScaled < 60 &* unit,
            degrees < maximumDegrees || (degrees == maximumDegrees && minutesScaled == 0)
        else {
            isMalformed = true
            return nil
        }
        return NMEACoordinate(printed: value, isNegative: negative)
    }

    /// Ends a fused read at `cursor`: the field must end there (comma or end of sentence)
    /// and be `valid`; otherwise the rest of the field is skipped and the sentence marked
    /// malformed.
    @inlinable @inline(__always)
    mutating func finish(at cursor: UnsafePointer<UInt8>, valid: Bool) -> Bool {
        if cursor == end || cursor.pointee == UInt8(ascii: ",") {
            position = cursor + 1
            if valid { return true }
        } else {
            _ = next()
        }
        isMalformed = true
        return false
    }
}
