import CWaymarkSystem
import Glibc

/// An epoll instance (epoll(7)): the one place an event loop waits. Each registration carries
/// a 64-bit value of the caller's choosing, which comes back with its readiness reports.
package struct Epoll: Sendable {
    /// A readiness report from ``wait(into:timeoutMilliseconds:)``.
    package struct Event: Sendable {
        /// What the descriptor is ready for.
        package var events: IOEvents
        /// The value given when the descriptor was added.
        package var data: UInt64
    }

    /// The epoll descriptor; close it when done.
    package let descriptor: FileDescriptor

    /// Creates an epoll instance with epoll_create1(EPOLL_CLOEXEC).
    package init() throws(SystemError) {
        descriptor = FileDescriptor(
            rawValue: try check("epoll_create1") { system_epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Starts watching `fd` for `events` (epoll_ctl `EPOLL_CTL_ADD`), level-triggered.
    package func add(_ fd: FileDescriptor, for events: IOEvents, data: UInt64) throws(SystemError) {
        try control(EPOLL_CTL_ADD, fd, events, data)
    }

    /// Changes the events and value of a watched `fd` (epoll_ctl `EPOLL_CTL_MOD`).
    package func modify(_ fd: FileDescriptor, for events: IOEvents, data: UInt64) throws(SystemError) {
        try control(EPOLL_CTL_MOD, fd, events, data)
    }

    /// Stops watching `fd` (epoll_ctl `EPOLL_CTL_DEL`).
    package func remove(_ fd: FileDescriptor) throws(SystemError) {
        try control(EPOLL_CTL_DEL, fd, [], 0)
    }

    /// Waits with epoll_wait(2) until a descriptor is ready or `timeoutMilliseconds` pass
    /// (-1: forever), then replaces the contents of `events` with up to 64 reports.
    /// Waits interrupted by a signal handler are resumed.
    package func wait(into events: inout [Event], timeoutMilliseconds: Int32 = -1) throws(SystemError) {
        events.removeAll(keepingCapacity: true)
        let capacity = 64
        try withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: capacity) {
            buffer throws(SystemError) in
            let count = try check("epoll_wait") {
                system_epoll_wait(descriptor.rawValue, buffer.baseAddress, Int32(capacity), timeoutMilliseconds)
            }
            for report in buffer[..<Int(count)] {
                events.append(Event(events: IOEvents(rawValue: report.events), data: report.data.u64))
            }
        }
    }

    private func control(
        _ operation: Int32, _ fd: FileDescriptor, _ events: IOEvents, _ data: UInt64
    ) throws(SystemError) {
        var event = epoll_event(events: events.rawValue, data: epoll_data(u64: data))
        _ = try check("epoll_ctl") { system_epoll_ctl(descriptor.rawValue, operation, fd.rawValue, &event) }
    }
}
