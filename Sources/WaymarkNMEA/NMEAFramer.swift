/// Splits a byte stream into checksum-verified NMEA 0183 sentences.
///
/// Indifferent to chunking: feeding one byte at a time or 64 KiB at once yields the same
/// sentences. It accepts CR/LF and bare LF line endings, resynchronises on every `$` or `!`
/// (so doubled `$$` starts and sentences merged by a lost line ending are handled), drops
/// NUL and binary bytes, banners and other noise, bounds sentence length, and verifies every
/// checksum: a sentence with a bad or missing checksum is counted in ``statistics`` and never
/// handed on.
///
/// A sentence is handed on as soon as its second checksum digit arrives, without waiting for
/// the line ending. When the sentence lies wholly inside the chunk being consumed, the view
/// points straight into that chunk: nothing is copied or allocated.
public struct NMEAFramer: Sendable {
    /// The default bound on a sentence's body (address and fields, without delimiters and
    /// checksum). The standard allows 79 characters; real receivers exceed it with long
    /// proprietary sentences, so the bound is generous but finite.
    public static let defaultMaximumBodyLength = 1024

    /// Counts of accepted and rejected input.
    public private(set) var statistics = FramerStatistics()

    /// The bound on a sentence body this framer enforces.
    public let maximumBodyLength: Int

    private enum State: UInt8 {
        case idle, body, checksumHigh, checksumLow
    }

    private var state = State.idle
    private var delimiter: UInt8 = 0
    private var checksum: UInt8 = 0
    private var expectedChecksum: UInt8 = 0
    private var bodyLength = 0
    /// Body bytes of a sentence that began in an earlier chunk.
    private var carry: [UInt8] = []

    /// Creates a framer that enforces the given bound on a sentence body.
    public init(maximumBodyLength: Int = NMEAFramer.defaultMaximumBodyLength) {
        precondition(maximumBodyLength > 0, "a sentence body must be allowed at least one byte")
        self.maximumBodyLength = maximumBodyLength
        carry.reserveCapacity(maximumBodyLength)
    }

    /// Consumes a chunk of bytes, calling `body` for each complete, verified sentence.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ body: (NMEASentence) -> Void) {
        consume(bytes.bindMemory(to: UInt8.self), body)
    }

    /// Consumes a chunk of bytes held in any contiguous collection.
    public mutating func consume(_ bytes: some Collection<UInt8>, _ body: (NMEASentence) -> Void) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { consume($0, body) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { consume($0, body) }
        }
    }

    /// Consumes a chunk of bytes, calling `body` for each complete, verified sentence.
    public mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (NMEASentence) -> Void) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // The open sentence's body bytes in this chunk are base[bodyStart..<bodyEnd]; any
        // bytes before them (from earlier chunks) are in `carry`.
        var bodyStart = 0
        var bodyEnd = 0
        var index = 0
        while index < count {
            switch state {
            case .body:
                // Fast path: digits, letters, comma, point, minus all lie above `*` (0x2A);
                // a whole run of them is checksummed eight bytes at a time.
                let runEnd = Self.ordinaryRun(base, from: index, to: count, checksum: &checksum)
                let lengthBefore = bodyLength
                bodyLength &+= runEnd - index
                if bodyLength > maximumBodyLength {
                    // Abandon the sentence at the first byte past the bound; what follows is noise.
                    statistics.oversize += 1
                    state = .idle
                    index &+= maximumBodyLength - lengthBefore + 1
                    continue
                }
                index = runEnd
                guard index < count else { continue }
                let byte = base[index]
                if byte == UInt8(ascii: "*") {
                    bodyEnd = index
                    // Usually both checksum digits are in the chunk too: verify at once.
                    if index &+ 2 < count, let high = Self.hexValue(base[index &+ 1]),
                        let low = Self.hexValue(base[index &+ 2])
                    {
                        verify(high << 4 | low, UnsafeBufferPointer(start: base + bodyStart, count: bodyEnd - bodyStart), body)
                        index = Self.lineEnding(base, from: index &+ 3, to: count)
                        continue
                    }
                    state = .checksumHigh
                } else if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
                    if bodyLength > 0 { statistics.truncated += 1 }
                    begin(with: byte)
                    bodyStart = index + 1
                } else if byte == 0x0D || byte == 0x0A {
                    statistics.missingChecksums += 1
                    state = .idle
                } else if byte >= 0x20 && byte < 0x7F {
                    checksum ^= byte
                    bodyLength &+= 1
                } else {
                    statistics.invalidBytes += 1
                    state = .idle
                }
            case .idle:
                let byte = base[index]
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
                    if let next = wholeSentence(base, at: index, count: count, body) {
                        index = next
                        continue
                    }
                    begin(with: byte)
                    bodyStart = index + 1
                } else if byte != 0x0D && byte != 0x0A {
                    statistics.noiseBytes += 1
                }
            case .checksumHigh:
                let byte = base[index]
                if let nibble = Self.hexValue(byte) {
                    expectedChecksum = nibble << 4
                    state = .checksumLow
                } else {
                    rejectChecksumDigit(byte)
                    bodyStart = index + 1
                }
            case .checksumLow:
                let byte = base[index]
                if let nibble = Self.hexValue(byte) {
                    verify(expectedChecksum | nibble, UnsafeBufferPointer(start: base + bodyStart, count: bodyEnd - bodyStart), body)
                } else {
                    rejectChecksumDigit(byte)
                    bodyStart = index + 1
                }
            }
            index &+= 1
        }
        // Keep what belongs to a sentence still open at the end of the chunk.
        switch state {
        case .idle: break
        case .body: carry.append(contentsOf: UnsafeBufferPointer(start: base + bodyStart, count: count - bodyStart))
        case .checksumHigh, .checksumLow:
            carry.append(contentsOf: UnsafeBufferPointer(start: base + bodyStart, count: bodyEnd - bodyStart))
        }
    }

    /// Frames the sentence that starts at `start` in one go when it lies wholly in the chunk,
    /// checksum included, as nearly every sentence does: verifies it, hands it on and returns
    /// where the next byte is (past the line ending). Returns nil, having changed nothing, for
    /// anything else; the states then take the sentence byte by byte.
    @inline(__always)
    private mutating func wholeSentence(
        _ base: UnsafePointer<UInt8>, at start: Int, count: Int, _ body: (NMEASentence) -> Void
    ) -> Int? {
        let bodyStart = start &+ 1
        var sum: UInt8 = 0
        let bodyEnd = Self.ordinaryRun(base, from: bodyStart, to: count, checksum: &sum)
        guard bodyEnd &+ 2 < count, bodyEnd &- bodyStart <= maximumBodyLength, base[bodyEnd] == UInt8(ascii: "*"),
            let high = Self.hexValue(base[bodyEnd &+ 1]), let low = Self.hexValue(base[bodyEnd &+ 2])
        else { return nil }
        if high << 4 | low == sum {
            statistics.sentences += 1
            body(NMEASentence(startDelimiter: base[start], body: UnsafeBufferPointer(start: base + bodyStart, count: bodyEnd &- bodyStart).span))
        } else {
            statistics.badChecksums += 1
        }
        return Self.lineEnding(base, from: bodyEnd &+ 3, to: count)
    }

    /// Where the line ending at `index` ends: CR LF compared at once, anything else one byte
    /// at a time (the idle state would pass over it byte by byte).
    @inline(__always)
    private static func lineEnding(_ base: UnsafePointer<UInt8>, from index: Int, to count: Int) -> Int {
        if index &+ 1 < count && UInt16(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt16.self)) == 0x0A0D {
            return index &+ 2
        }
        var index = index
        while index < count && (base[index] == 0x0D || base[index] == 0x0A) { index &+= 1 }
        return index
    }

    /// Ends the sentence whose last body bytes are `tail`: hands it on if `expected` is its
    /// checksum, counts it as bad otherwise.
    @inline(__always)
    private mutating func verify(_ expected: UInt8, _ tail: UnsafeBufferPointer<UInt8>, _ body: (NMEASentence) -> Void) {
        state = .idle
        if expected == checksum {
            statistics.sentences += 1
            deliver(tail, body)
        } else {
            statistics.badChecksums += 1
        }
    }

    /// Hands on a verified sentence whose last body bytes are `tail`.
    @inline(__always)
    private mutating func deliver(_ tail: UnsafeBufferPointer<UInt8>, _ body: (NMEASentence) -> Void) {
        if carry.isEmpty {
            body(NMEASentence(startDelimiter: delimiter, body: tail.span))
        } else {
            carry.append(contentsOf: tail)
            let sentenceDelimiter = delimiter
            body(NMEASentence(startDelimiter: sentenceDelimiter, body: carry.span))
        }
    }

    /// Starts a new sentence opened by `byte`.
    @inline(__always)
    private mutating func begin(with byte: UInt8) {
        state = .body
        delimiter = byte
        checksum = 0
        bodyLength = 0
        // Usually empty: checking first spares the uniqueness checks of removeAll.
        if !carry.isEmpty { carry.removeAll(keepingCapacity: true) }
    }

    /// Handles a byte that should have been a checksum digit: the sentence has no valid
    /// checksum; a start delimiter opens the next sentence at once.
    private mutating func rejectChecksumDigit(_ byte: UInt8) {
        statistics.missingChecksums += 1
        if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
            begin(with: byte)
        } else {
            state = .idle
        }
    }

    /// Checksums the run of ordinary body bytes (above `*`, below DEL) starting at `start`
    /// and returns where it ends: at the first other byte, or at `end`.
    @inline(__always)
    private static func ordinaryRun(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, checksum: inout UInt8
    ) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        // Sixteen bytes at a time while the chunk has them, finding the run's end inside the
        // block; a chunk's last few bytes go eight at a time, then one by one.
        var blocks = SIMD16<UInt8>()
        while index &+ 16 <= end {
            let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            // Adding 0x55 moves the ordinary bytes 0x2B–0x7E to 0x80–0xD3, the only lanes whose
            // top bit is set both then and after adding 0x2C more: any other byte sets its
            // top bit here.
            let shifted = block &+ 0x55
            let flags = ~(shifted & (shifted &+ 0x2C)) & 0x80
            let others = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
            if others[0] | others[1] != 0 {
                // Fold in the bytes before the first other byte, and stop there.
                let halves = unsafeBitCast(block, to: SIMD2<UInt64>.self)
                let lowBits = others[0].trailingZeroBitCount & ~7  // 64 if none in the low half
                let highBits = others[0] != 0 ? 0 : others[1].trailingZeroBitCount & ~7
                let before = halves[0] & ((1 << UInt64(lowBits)) &- 1) ^ halves[1] & ((1 << UInt64(highBits)) &- 1)
                checksum ^= fold(foldedWord(blocks) ^ before)
                return index &+ (lowBits &+ highBits) &>> 3
            }
            blocks ^= block
            index &+= 16
        }
        var folded = foldedWord(blocks)
        while index &+ 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // The same test as above, eight bytes at a time. Only another byte carries into
            // the next, so whether the word has one is still exact.
            let shifted = word &+ 0x5555_5555_5555_5555
            if ~(shifted & (shifted &+ 0x2C2C_2C2C_2C2C_2C2C)) & 0x8080_8080_8080_8080 != 0 { break }
            folded ^= word
            index &+= 8
        }
        var sum = checksum ^ fold(folded)
        while index < end {
            let byte = base[index]
            guard byte > 0x2A && byte < 0x7F else { break }
            sum ^= byte
            index &+= 1
        }
        checksum = sum
        return index
    }

    /// A block's two halves, exclusive-ored.
    @inline(__always)
    private static func foldedWord(_ block: SIMD16<UInt8>) -> UInt64 {
        let halves = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        return halves[0] ^ halves[1]
    }

    /// The exclusive or of a word's eight bytes.
    @inline(__always)
    private static func fold(_ word: UInt64) -> UInt8 {
        var folded = word ^ word &>> 32
        folded ^= folded &>> 16
        folded ^= folded &>> 8
        return UInt8(truncatingIfNeeded: folded)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }
}
