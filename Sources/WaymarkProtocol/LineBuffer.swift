/// Splits a connection's bytes into lines, refusing lines longer than a limit without
/// buffering them: an oversize line is reported once and skipped up to its newline.
public struct LineBuffer: Sendable {
    /// What the bytes held.
    public enum Item: Equatable, Sendable {
        /// A complete line without its newline (and without a trailing carriage return).
        case line([UInt8])
        /// A line longer than the limit was discarded.
        case tooLong
    }

    /// The longest line accepted, in bytes, without its newline.
    public let maximumLength: Int
    private var pending: [UInt8] = []
    private var discarding = false

    /// A buffer for lines of at most `maximumLength` bytes.
    public init(maximumLength: Int = ProtocolLimits.maximumLineLength) {
        self.maximumLength = maximumLength
    }

    /// Takes `bytes` and returns the lines they complete; blank lines are skipped.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Item] {
        var items: [Item] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let segment = rest[..<(newline ?? rest.endIndex)]
            rest = newline.map { rest[($0 + 1)...] } ?? rest[rest.endIndex...]
            if !discarding {
                if pending.count + segment.count > maximumLength {
                    items.append(.tooLong)
                    pending.removeAll(keepingCapacity: true)
                    discarding = true
                } else {
                    pending.append(contentsOf: segment)
                }
            }
            guard newline != nil else { break }
            if !discarding {
                if pending.last == 0x0D { pending.removeLast() }
                if pending.contains(where: { $0 != 0x20 && $0 != 0x09 }) { items.append(.line(pending)) }
            }
            pending.removeAll(keepingCapacity: true)
            discarding = false
        }
        return items
    }
}
