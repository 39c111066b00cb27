/// One checksum-verified sentence, as a view into the framer's bytes.
///
/// The view is valid only inside the closure that receives it: copy what must outlive it
/// (``NMEAParser`` turns it into value types that own their data).
public struct NMEASentence {
    /// The byte that opened the sentence: `$` for ordinary sentences, `!` for encapsulated ones.
    public let startDelimiter: UInt8
    /// Everything between the start delimiter and the `*` of the checksum: the address field
    /// (talker and type) and the data fields, comma-separated.
    public let body: UnsafeBufferPointer<UInt8>

    /// Creates a view over a sentence body.
    @inlinable
    public init(startDelimiter: UInt8 = UInt8(ascii: "$"), body: UnsafeBufferPointer<UInt8>) {
        self.startDelimiter = startDelimiter
        self.body = body
    }

    /// The sentence as text, without delimiters or checksum (allocates; not for hot paths).
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
