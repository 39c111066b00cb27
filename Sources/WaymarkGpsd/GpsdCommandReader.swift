/// Splits a gpsd client's bytes into commands as gpsd reads them: each ends at `;` or a
/// newline (a `;` inside a JSON string of the argument does not end it), blanks around it
/// are ignored, several may share a line and one may span reads.
///
/// Commands are taken one at a time (``nextCommand()``), so a server can answer a few per
/// turn and keep the rest; it should append more bytes only once ``nextCommand()`` returned
/// `nil`, which bounds what the reader holds to one read plus one command in progress. A
/// command longer than ``GpsdCommand/maximumLength`` is reported once as invalid and skipped
/// to its end.
package struct GpsdCommandReader: Sendable {
    /// Bytes appended and not scanned yet.
    private var unread: [UInt8] = []
    private var unreadStart = 0
    /// The command in progress.
    private var pending: [UInt8] = []
    private var discarding = false
    private var inString = false
    private var escaped = false

    /// A reader with nothing pending.
    package init() {}

    /// The bytes held: unscanned input and the command in progress.
    package var heldBytes: Int { unread.count - unreadStart + pending.count }

    /// Adds bytes read from the client.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        unread.append(contentsOf: bytes)
    }

    /// The next complete command, or `nil` when the bytes so far end none.
    package mutating func nextCommand() -> GpsdCommand? {
        while unreadStart < unread.count {
            let byte = unread[unreadStart]
            unreadStart += 1
            if byte == 0x0A || (byte == UInt8(ascii: ";") && !inString) {
                if let command = finish() { return command }
                continue
            }
            if discarding { continue }
            track(byte)
            guard pending.count < GpsdCommand.maximumLength else {
                discarding = true
                pending = []
                return .invalid(message: "Request too long")
            }
            pending.append(byte)
        }
        unread = []
        unreadStart = 0
        return nil
    }

    /// Follows JSON strings, inside which `;` ends nothing.
    private mutating func track(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        }
    }

    /// Ends the command in progress: its parse, or `nil` when it was blank or discarded.
    private mutating func finish() -> GpsdCommand? {
        defer {
            pending.removeAll(keepingCapacity: pending.count <= 64)
            discarding = false
            inString = false
            escaped = false
        }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard !discarding, let first = pending.firstIndex(where: { !isBlank($0) }),
            let last = pending.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return GpsdCommand(pending[first...last])
    }
}
