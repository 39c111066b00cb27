package import WaymarkLocation
/// Removes the comment lines of an NMEA capture file (lines starting with `#`, gpsd's
/// capture convention) from a byte stream, and reads the `# Date: YYYY-MM-DD` comment that
/// seeds the date for receivers that send none.
///
/// Like the framer it is indifferent to chunking.
package struct CaptureCommentFilter: Sendable {
    private var atLineStart = true
    private var inComment = false
    private var comment: [UInt8] = []

    /// Creates a filter positioned at the start of a file.
    package init() {
        comment.reserveCapacity(128)
    }

    /// Splits a chunk into the runs of bytes outside comments, handing each to `data` and
    /// each `# Date:` found to `date`.
    package mutating func filter(
        _ bytes: UnsafeBufferPointer<UInt8>,
        data: (UnsafeBufferPointer<UInt8>) -> Void,
        date: (CivilDate) -> Void
    ) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = base[index]
            if inComment {
                if byte == 0x0A {
                    inComment = false
                    atLineStart = true
                    if let seeded = Self.dateComment(comment) { date(seeded) }
                    runStart = index + 1
                } else if comment.count < 128 {
                    comment.append(byte)
                }
            } else if byte == 0x0A {
                atLineStart = true
            } else if atLineStart && byte == UInt8(ascii: "#") {
                if index > runStart { data(UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
                inComment = true
                comment.removeAll(keepingCapacity: true)
            } else {
                atLineStart = false
            }
            index += 1
        }
        if !inComment && bytes.count > runStart {
            data(UnsafeBufferPointer(start: base + runStart, count: bytes.count - runStart))
        }
    }

    /// Reads `Date: YYYY-MM-DD` (after the `#`), as gpsfake does.
    static func dateComment(_ comment: [UInt8]) -> CivilDate? {
        let text = String(decoding: comment, as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("Date:") else { return nil }
        let value = trimmed.dropFirst(5).drop { $0 == " " || $0 == "\t" }
        let token = value.prefix { !$0.isWhitespace && $0 != "T" }
        return CivilDate(parsing: token)
    }
}
