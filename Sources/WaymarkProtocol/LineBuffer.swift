/// Splits a connection's bytes into lines, refusing lines longer than a limit without
/// buffering them: an oversize line is reported once and skipped up to its newline.
///
/// Lines are taken one at a time (``nextItem()``), so a reader can stop after a few and keep
/// the rest for later; it should append more bytes only once ``nextItem()`` returned `nil`,
/// which bounds what the buffer holds to one partial line plus one read. The storage is
/// released whenever the buffer empties, so an idle connection costs no buffer at all.
package struct LineBuffer: Sendable {
    /// What the bytes held.
    package enum Item: Equatable, Sendable {
        /// A complete line without its newline (and without a trailing carriage return).
        case line([UInt8])
        /// A line longer than the limit was discarded.
        case tooLong
    }

    /// The longest line accepted, in bytes, without its newline.
    package let maximumLength: Int
    private var bytes: [UInt8] = []
    /// The first byte not taken yet.
    private var start = 0
    /// Bytes from ``start`` up to here hold no newline.
    private var scanned = 0
    /// Whether the bytes up to the next newline belong to a line reported too long.
    private var discarding = false

    /// A buffer for lines of at most `maximumLength` bytes.
    package init(maximumLength: Int = ProtocolLimits.maximumLineLength) {
        self.maximumLength = maximumLength
    }

    /// The memory the buffer holds, in bytes (its storage's capacity).
    package var allocatedBytes: Int { bytes.capacity }

    /// Adds bytes read from the connection.
    package mutating func append(_ incoming: UnsafeRawBufferPointer) {
        var incoming = incoming[...]
        if discarding {
            guard let newline = incoming.firstIndex(of: 0x0A) else { return }
            discarding = false
            incoming = incoming[(newline + 1)...]
        }
        bytes.append(contentsOf: incoming)
    }

    /// The next complete line (blank lines are skipped) or oversize report, or `nil` when
    /// the bytes so far hold none.
    package mutating func nextItem() -> Item? {
        while let newline = bytes[scanned...].firstIndex(of: 0x0A) {
            var end = newline
            let length = end - start
            defer { take(upTo: newline + 1) }
            if length > maximumLength { return .tooLong }
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            let line = bytes[start..<end]
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { return .line(Array(line)) }
        }
        scanned = bytes.count
        guard bytes.count - start > maximumLength else {
            compact()
            return nil
        }
        discarding = true
        take(upTo: bytes.count)
        return .tooLong
    }

    private mutating func take(upTo index: Int) {
        start = index
        scanned = index
        if start == bytes.count { compact() }
    }

    /// Drops the bytes taken: frees the storage when nothing is left, moves a partial line to
    /// the front once the taken bytes outweigh it.
    private mutating func compact() {
        if start == bytes.count {
            bytes = []
            start = 0
            scanned = 0
        } else if start > 0 && start >= bytes.count - start {
            bytes.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
    }
}
