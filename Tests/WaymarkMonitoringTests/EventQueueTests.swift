import Testing
@testable import WaymarkMonitoring

@Suite("Monitor: the queue of events for an absent app")
struct EventQueueTests {
    @Test("bounded, the newest kept, drops counted until drained")
    func newestKept() {
        var queue = EventQueue<Int>(capacity: 3)
        for event in 1...5 { queue.append(event) }
        #expect(queue.events == [3, 4, 5])
        #expect(queue.dropped == 2)
        let drained = queue.drain()
        #expect(drained.events == [3, 4, 5] && drained.dropped == 2)
        #expect(queue.events.isEmpty && queue.dropped == 0)
        queue.append(6)
        #expect(queue.drain().events == [6])
    }

    @Test("restored from untrusted storage: trimmed to capacity, counts saturate")
    func restore() {
        let queue = EventQueue<Int>(capacity: 4, restoring: Array(1...10), dropped: 1)
        #expect(queue.events == [7, 8, 9, 10])
        #expect(queue.dropped == 7)
        var full = EventQueue<Int>(capacity: 1, restoring: [1, 2], dropped: .max)
        full.append(3)
        #expect(full.dropped == .max)
        #expect(EventQueue<Int>(capacity: 0).capacity == 1)
        #expect(EventQueue<Int>(capacity: 2, restoring: [], dropped: -4).dropped == 0)
        #expect(EventQueue<Int>().capacity == 100)
    }
}
