import Testing
import WaymarkDrivers
import WaymarkSystem

/// A line that never stops toggling gives the loop back after a bounded number of edges: the
/// reader drained until the kernel's queue was empty, which such a line never lets happen.
@Suite(.timeLimit(.minutes(1)))
struct EdgeReadBoundTests {
    /// An input whose queue never empties: each read finds another edge, a microsecond later.
    final class EndlessEdges {
        var read = 0
        func next() -> GPIOEdge? {
            read += 1
            return GPIOEdge(rising: read % 2 == 1, timestamp: MonotonicInstant(nanoseconds: Int64(read) * 1_000))
        }
    }

    @Test func aLineThatNeverStopsTogglingGivesTheLoopBackAfterABoundedRead() throws {
        let line = EndlessEdges()
        var taken: [GPIOEdge] = []
        try GPIOEdgeInput.take(atMost: GPIOEdgeInput.maximumEdgesPerRead, from: line.next) { taken.append($0) }
        #expect(taken.count == GPIOEdgeInput.maximumEdgesPerRead)
        #expect(line.read == GPIOEdgeInput.maximumEdgesPerRead)
        // The next turn goes on where this one stopped.
        try GPIOEdgeInput.take(atMost: GPIOEdgeInput.maximumEdgesPerRead, from: line.next) { taken.append($0) }
        #expect(taken.map(\.timestamp.nanoseconds) == (1...2 * GPIOEdgeInput.maximumEdgesPerRead).map { Int64($0) * 1_000 })
    }

    @Test func aQueueThatEmptiesEndsTheRead() throws {
        var queued = [GPIOEdge(rising: true, timestamp: MonotonicInstant(nanoseconds: 5))]
        var taken = 0
        try GPIOEdgeInput.take(atMost: GPIOEdgeInput.maximumEdgesPerRead, from: { queued.popLast() }) { _ in taken += 1 }
        #expect(taken == 1)
    }

    @Test func aFailedReadIsReported() {
        let failure = SystemError(errno: 5, call: "gpiod read edge", argument: "/dev/gpiochip0 line 4")
        #expect(throws: failure) {
            try GPIOEdgeInput.take(atMost: 4, from: { () throws(SystemError) -> GPIOEdge? in throw failure }) { _ in }
        }
    }
}
