import Testing
import WaymarkConnection
import WaymarkLocation
import WaymarkProtocol

/// What a connection's ``OutputQueue`` keeps once the socket is full: a client that does not
/// read costs its unwritten bytes, and an update not begun still coalesces with newer ones.
@Suite struct OutputQueueTests {
    static let state = OutputQueue.StreamState(LocationUpdate(location: nil, isStationary: false))

    @Test func anUpdateTheSocketTookNoneOfWaitsWithTheOthersAndIsReplacedByANewerOne() {
        var queue = OutputQueue()
        _ = queue.append(encodedUpdate: Array(#"{"n":1}"#.utf8), state: Self.state, subscription: 7)
        #expect(queue.nextBytes().isNewMessage)
        // The socket took nothing: the update goes back to wait.
        queue.socketFilled()
        #expect(queue.append(encodedUpdate: Array(#"{"n":2}"#.utf8), state: Self.state, subscription: 7) == 1)
        let (bytes, isNew) = queue.nextBytes()
        #expect(isNew)
        #expect(Array(bytes) == UpdateEvent.line(subscription: 7, encodedUpdate: Array(#"{"n":2}"#.utf8), missed: 1))
        queue.consume(bytes.count)
        #expect(queue.nextBytes().bytes.isEmpty)
        #expect(queue.isEmpty)
    }

    @Test func anUpdateBegunIsFinishedBeforeANewerOne() {
        var queue = OutputQueue()
        _ = queue.append(encodedUpdate: Array(#"{"n":1}"#.utf8), state: Self.state, subscription: 7)
        let first = Array(queue.nextBytes().bytes)
        queue.consume(5)
        queue.socketFilled()
        _ = queue.append(encodedUpdate: Array(#"{"n":2}"#.utf8), state: Self.state, subscription: 7)
        let (rest, isNew) = queue.nextBytes()
        #expect(!isNew)
        #expect(Array(rest) == Array(first[5...]))
        queue.consume(rest.count)
        #expect(Array(queue.nextBytes().bytes) == UpdateEvent.line(subscription: 7, encodedUpdate: Array(#"{"n":2}"#.utf8), missed: 0))
    }

    @Test func messagesThatWaitKeepTheirBytesInOrder() {
        var queue = OutputQueue()
        var built: [UInt8] = []
        built.reserveCapacity(4_096)
        built += Array(repeating: UInt8(ascii: "a"), count: 999) + [0x0A]
        let second = Array(repeating: UInt8(ascii: "b"), count: 99) + [0x0A]
        queue.append(message: built)
        #expect(Array(queue.nextBytes().bytes) == built)
        queue.consume(400)
        queue.socketFilled()
        queue.append(message: second)
        #expect(queue.messageBytes == second.count)
        var written: [UInt8] = []
        while true {
            let (bytes, _) = queue.nextBytes()
            if bytes.isEmpty { break }
            written += bytes.prefix(300)
            queue.consume(min(bytes.count, 300))
            queue.socketFilled()
        }
        #expect(written == Array(built[400...]) + second)
        #expect(queue.isEmpty && queue.messageBytes == 0)
    }
}
