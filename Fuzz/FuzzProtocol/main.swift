import CLibFuzzer
import Glibc
import WaymarkProtocol

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: a connection's bytes split into lines (whole, and again in two parts),
/// each line decoded as a client's request (as the daemon does) and as a daemon's message (as
/// the client library does). A line that decodes must read back the same from what it
/// encodes to; a rejected request must give an error reply that does.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let middle = bytes.count / 2
    let items = lines(of: [bytes])
    let splitItems = lines(of: [
        UnsafeRawBufferPointer(rebasing: bytes[..<middle]), UnsafeRawBufferPointer(rebasing: bytes[middle...]),
    ])
    guard items == splitItems else { fatalError("splitting the bytes changed the lines") }
    for case .line(let line) in items {
        decodeRequest(line)
        if let message = try? ServerMessage(line: line) { checkReadsBack(message) }
    }
    return 0
}

/// The lines of `parts` read as a connection reads them: each part appended once the lines
/// before it are taken.
private func lines(of parts: [UnsafeRawBufferPointer]) -> [LineBuffer.Item] {
    var buffer = LineBuffer()
    var items: [LineBuffer.Item] = []
    for part in parts {
        buffer.append(part)
        while let item = buffer.nextItem() { items.append(item) }
    }
    return items
}

/// Decodes a line as the daemon does; a request must read back from its own line, and a
/// rejected one must give an error reply that reads back.
private func decodeRequest(_ line: [UInt8]) {
    do throws(RejectedRequest) {
        let request = try Request(line: line)
        guard (try? Request(line: request.line.dropLast())) == request else {
            fatalError("request \(String(decoding: request.line, as: UTF8.self)) does not read back")
        }
    } catch {
        checkReadsBack(.reply(error.reply))
    }
}

/// Stops when `message` does not decode from its own line as itself.
private func checkReadsBack(_ message: ServerMessage) {
    guard (try? ServerMessage(line: message.line.dropLast())) == message else {
        fatalError("message \(String(decoding: message.line, as: UTF8.self)) does not read back")
    }
}
