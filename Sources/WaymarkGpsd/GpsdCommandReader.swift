/// Splits a gpsd client's bytes into commands as gpsd reads them: each ends at `;` or a
/// newline (a `;` inside a JSON string of the argument does not end it), blanks around it
/// are ignored, several may share a line and one may span reads.
///
/// Bounded: only the command in progress is kept, and one longer than
/// ``GpsdCommand/maximumLength`` is reported once as invalid and skipped to its end.
package struct GpsdCommandReader: Sendable {
    private var pending: [UInt8] = []
    private var discarding = false
    private var inString = false
    private var escaped = false

    /// A reader with nothing pending.
    package init() {}

    /// The bytes held for the command in progress.
    package var pendingBytes: Int { pending.count }

    /// The commands `bytes` complete, in order; their number is at most half the bytes
    /// read plus one, so a bounded read gives a bounded list.
    package mutating func commands(in bytes: UnsafeRawBufferPointer) -> [GpsdCommand] {
        var commands: [GpsdCommand] = []
        for byte in bytes {
            if byte == 0x0A || (byte == UInt8(ascii: ";") && !inString) {
                if let command = finish() { commands.append(command) }
                continue
            }
            if discarding { continue }
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
            guard pending.count < GpsdCommand.maximumLength else {
                discarding = true
                pending = []
                commands.append(.invalid(message: "Request too long"))
                continue
            }
            pending.append(byte)
        }
        return commands
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
