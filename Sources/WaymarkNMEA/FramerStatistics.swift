/// What an ``NMEAFramer`` has seen: accepted sentences and every kind of rejected input.
public struct FramerStatistics: Hashable, Sendable {
    /// Sentences whose checksum verified and that were handed on.
    public var sentences: Int = 0
    /// Sentences whose checksum did not match their content.
    public var badChecksums: Int = 0
    /// Sentences that ended without a `*hh` checksum.
    public var missingChecksums: Int = 0
    /// Sentences cut short by the start of another one (a lost line ending, a doubled `$`
    /// after content).
    public var truncated: Int = 0
    /// Sentences abandoned because they grew beyond the framer's length bound.
    public var oversize: Int = 0
    /// Sentences abandoned because a byte that cannot appear in NMEA (NUL, binary, control
    /// characters) turned up inside them.
    public var invalidBytes: Int = 0
    /// Bytes outside any sentence that were not line endings: banners, binary noise.
    public var noiseBytes: Int = 0

    /// Creates empty statistics.
    public init() {}

    /// Every sentence that started but was not accepted.
    public var rejected: Int {
        badChecksums + missingChecksums + truncated + oversize + invalidBytes
    }
}
