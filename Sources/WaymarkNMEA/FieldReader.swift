/// Walks the comma-separated fields of a sentence body, and remembers whether any field it
/// converted was malformed.
public struct FieldReader {
    @usableFromInline var position: UnsafePointer<UInt8>?
    @usableFromInline let end: UnsafePointer<UInt8>?
    /// Whether a field read through one of the typed accessors was malformed.
    public var isMalformed = false

    /// Creates a reader positioned at the first field after the address field.
    @inlinable
    public init(body: UnsafeBufferPointer<UInt8>) {
        position = body.baseAddress
        end = body.baseAddress.map { $0 + body.count }
        _ = next()  // the address field
    }

    /// Whether every field has been read.
    @inlinable
    public var isAtEnd: Bool { position == nil || position == end.map { $0 + 1 } }

    /// The next field; an empty field once the sentence has no more.
    @inlinable
    public mutating func next() -> Field {
        guard var cursor = position, let end, cursor <= end else { return .empty }
        let start = cursor
        while cursor < end && cursor.pointee != UInt8(ascii: ",") {
            cursor += 1
        }
        position = cursor + 1
        return Field(UnsafeBufferPointer(start: start, count: cursor - start))
    }

    /// Skips `count` fields.
    @inlinable
    public mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// Reads a field of type `Value`, recording malformed content.
    @inlinable
    public mutating func read<Value>(_ parse: (Field) -> Parsed<Value>) -> Value? {
        accept(parse(next()))
    }

    /// Unwraps an already parsed value, recording malformed content.
    @inlinable
    public mutating func accept<Value>(_ parsed: Parsed<Value>) -> Value? {
        switch parsed {
        case .absent: return nil
        case .value(let value): return value
        case .malformed:
            isMalformed = true
            return nil
        }
    }

    /// Reads a decimal number.
    @inlinable
    public mutating func decimal() -> NMEADecimal? { read { $0.decimal } }

    /// Reads an unsigned integer.
    @inlinable
    public mutating func unsigned() -> Int? { read { $0.unsigned } }

    /// Reads an integer that may be printed with a zero fraction.
    @inlinable
    public mutating func integer() -> Int? { read { $0.integer } }

    /// Reads a single character.
    @inlinable
    public mutating func character() -> UInt8? { next().character }

    /// Reads a time of day.
    @inlinable
    public mutating func timeOfDay() -> TimeOfDay? { read { $0.timeOfDay } }

    /// Reads a date.
    @inlinable
    public mutating func date() -> NMEADate? { read { $0.date } }

    /// Reads a latitude field and its hemisphere field.
    @inlinable
    public mutating func latitude() -> NMEACoordinate? {
        let value = next()
        let hemisphere = next()
        return accept(value.coordinate(hemisphere: hemisphere, maximumDegrees: 90))
    }

    /// Reads a longitude field and its hemisphere field.
    @inlinable
    public mutating func longitude() -> NMEACoordinate? {
        let value = next()
        let hemisphere = next()
        return accept(value.coordinate(hemisphere: hemisphere, maximumDegrees: 180))
    }
}
