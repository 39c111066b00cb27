import Glibc
import Testing
import WaymarkSystem

@Suite("a log that never waits for its reader")
struct StandardErrorLogTests {
    /// Everything waiting in `descriptor` (made nonblocking to read it).
    private func drain(_ descriptor: Int32) -> String {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 { text += chunk[..<count] }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new pipe's read and write ends.
    private func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        return (ends[0], ends[1])
    }

    @Test("a pipe no one reads: lines are dropped instead of waited on, and the next line that fits says how many")
    func aFullPipe() throws {
        let ends = makePipe()
        defer { close(ends.read); close(ends.write) }
        let log = StandardErrorLog(prefix: "test: ", descriptor: FileDescriptor(rawValue: ends.write))
        // A pipe holds 64 KiB: 2,000 lines of 50 bytes fill it, and the rest must not wait.
        for number in 0..<2_000 { log.write("line \(number) " + String(repeating: "x", count: 34)) }
        let first = drain(ends.read)
        #expect(first.hasPrefix("test: line 0 x"))
        #expect(first.hasSuffix("x\n"))  // the pipe takes a line whole or not at all
        let kept = first.split(separator: "\n").count
        log.write("after")
        #expect(drain(ends.read) == "test: \(2_000 - kept) log lines dropped: the log's reader fell behind\ntest: after\n")
    }

    @Test("a line quoting a device's or a client's bytes cannot split itself or steer the terminal")
    func controlBytesAreEscaped() throws {
        let ends = makePipe()
        defer { close(ends.read); close(ends.write) }
        let log = StandardErrorLog(prefix: "test: ", descriptor: FileDescriptor(rawValue: ends.write))
        log.write("client said 'x\ntest: forged\u{1b}[31m'")
        #expect(drain(ends.read) == #"test: client said 'x\u{a}test: forged\u{1b}[31m'"# + "\n")
    }

    @Test("the descriptor is opened anew: whoever shares the inherited one keeps it blocking")
    func theSharedFileStaysBlocking() throws {
        let ends = makePipe()
        let shared = dup(ends.write)
        defer { close(ends.read); close(ends.write); close(shared) }
        _ = StandardErrorLog(prefix: "", descriptor: FileDescriptor(rawValue: ends.write))
        #expect(fcntl(ends.write, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(shared, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test("a socket (a journal's stream) that takes nothing more: lines are dropped, the socket's flags untouched")
    func aFullSocket() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let log = StandardErrorLog(prefix: "", descriptor: FileDescriptor(rawValue: pair[1]))
        for _ in 0..<20_000 { log.write(String(repeating: "y", count: 99)) }
        #expect(fcntl(pair[1], F_GETFL) & O_NONBLOCK == 0)
        #expect(drain(pair[0]).count > 0)
        log.write("after")
        #expect(drain(pair[0]).hasSuffix(" log lines dropped: the log's reader fell behind\nafter\n"))
    }

    @Test("a line longer than a pipe takes whole is cut on a character")
    func aLongLine() throws {
        let ends = makePipe()
        defer { close(ends.read); close(ends.write) }
        let log = StandardErrorLog(prefix: "pq: ", descriptor: FileDescriptor(rawValue: ends.write))
        // Two bytes each after a 4-byte prefix: byte 4,095 (the last before the newline) would
        // be the first half of a character, so the line ends one byte earlier.
        log.write(String(repeating: "é", count: 5_000))
        let text = drain(ends.read)
        #expect(text.utf8.count == StandardErrorLog.longestLine - 1)
        #expect(text == "pq: " + String(repeating: "é", count: (StandardErrorLog.longestLine - 6) / 2) + "\n")
    }
}
