/// One checksum-verified sentence, as a view into the framer's bytes.
///
/// The view is non-escapable: it lives no longer than the bytes it views (inside the closure
/// that receives it), which the compiler checks. Copy what must outlive it (``NMEAParser``
/// turns it into value types that own their data).
public struct NMEASentence: ~Escapable {
    /// The byte that opened the sentence: `$` for ordinary sentences, `!` for encapsulated ones.
    public let startDelimiter: UInt8
    /// Everything between the start delimiter and the `*` of the checksum: the address field
    /// (talker and type) and the data fields, comma-separated.
    public let body: Span<UInt8>

    /// Creates a view over a sentence body.
    @_lifetime(copy body)
    public init(startDelimiter: UInt8 = UInt8(ascii: "$"), body: Span<UInt8>) {
        self.startDelimiter = startDelimiter
        self.body = body
    }

    /// The sentence as text, without delimiters or checksum (allocates; not for hot paths).
    public var text: String {
        body.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}
