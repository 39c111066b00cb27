/// TXT — a text message from the receiver (antenna status, firmware banner, errors).
public struct TXT: Hashable, Sendable {
    /// The most text bytes kept.
    public static let capacity = 80

    /// How many sentences make up the message.
    public var messageCount: Int?
    /// This sentence's number within the message.
    public var messageNumber: Int?
    /// Text identifier (00 error … 02 notice, 07 user), as printed.
    public var identifier: Int?
    /// The text bytes, up to ``capacity``.
    public var textBytes: InlineArray<80, UInt8>
    /// How many entries of ``textBytes`` are filled.
    public var textLength: Int

    /// The text (allocates; not for hot paths).
    public var text: String {
        String(decoding: (0..<textLength).map { textBytes[$0] }, as: UTF8.self)
    }

    public static func == (lhs: TXT, rhs: TXT) -> Bool {
        lhs.messageCount == rhs.messageCount && lhs.messageNumber == rhs.messageNumber
            && lhs.identifier == rhs.identifier && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(text)
    }

    /// Creates a message with the given text (cut to ``capacity`` bytes).
    public init(text: String = "") {
        textBytes = InlineArray(repeating: 0)
        textLength = 0
        for byte in text.utf8 where textLength < TXT.capacity {
            textBytes[textLength] = byte
            textLength += 1
        }
    }

    init(_ fields: inout FieldReader) {
        messageCount = fields.unsigned()
        messageNumber = fields.unsigned()
        identifier = fields.unsigned()
        textBytes = InlineArray(repeating: 0)
        textLength = 0
        // The text may itself contain commas: take everything that is left.
        var first = true
        while !fields.isAtEnd {
            let field = fields.next()
            if !first, textLength < TXT.capacity {
                textBytes[textLength] = UInt8(ascii: ",")
                textLength += 1
            }
            first = false
            for byte in field.bytes where textLength < TXT.capacity {
                textBytes[textLength] = byte
                textLength += 1
            }
        }
    }
}
