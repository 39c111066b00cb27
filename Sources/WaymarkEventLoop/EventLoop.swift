package import WaymarkSystem

/// A single-threaded event loop over one epoll instance. It owns the daemon's descriptors
/// (GPS source, GPIO events, sockets), its timers (all behind one timerfd) and its signals
/// (a signalfd), and calls their handlers as they become ready.
///
/// Threading rule: create the loop, register, schedule and ``run()`` it on one thread; every
/// handler runs on that thread, in turn, and must not block. Other threads use only
/// ``remote``, whose ``Remote/execute(_:)`` hands work to the loop.
///
/// Nothing polls: with no timer pending the timerfd is disarmed and epoll_wait sleeps until a
/// descriptor is ready, so an idle loop does not wake at all (see ``Remote/wakeups``).
package final class EventLoop {
    /// Called with the loop and what the descriptor is ready for.
    package typealias IOHandler = (EventLoop, IOEvents) -> Void
    /// Called with the loop when a timer fires.
    package typealias TimerHandler = (EventLoop) -> Void
    /// Called with the loop and the signal that arrived.
    package typealias SignalHandler = (EventLoop, Signal) -> Void

    private struct Registration {
        let generation: UInt32
        let handler: IOHandler
    }

    /// The thread-safe side of this loop.
    package let remote: Remote

    private let epoll: Epoll
    private let timerFD: TimerFD
    private var signalFD: SignalFD?
    private var registrations: [Int32: Registration] = [:]
    private var lastGeneration: UInt32 = 0
    private var timers = TimerQueue<TimerHandler>()
    private var armedDeadline: MonotonicInstant?
    private var events: [Epoll.Event] = []
    private var stopRequested = false

    /// How many timers are pending (reported by `status`, watched by the soak test).
    package var pendingTimerCount: Int { timers.count }
    /// How many descriptors are registered, the loop's own timerfd and eventfd included.
    package var registeredDescriptorCount: Int { registrations.count }

    /// Creates a loop with its epoll instance, timerfd and wake-up eventfd.
    package init() throws(SystemError) {
        epoll = try Epoll()
        do throws(SystemError) {
            timerFD = try TimerFD()
            do throws(SystemError) {
                remote = try Remote()
            } catch {
                try? timerFD.descriptor.close()
                throw error
            }
        } catch {
            try? epoll.descriptor.close()
            throw error
        }
        try register(timerFD.descriptor, for: .readable) { loop, _ in loop.fireDueTimers() }
        try register(remote.eventFD.descriptor, for: .readable) { loop, _ in loop.runJobs() }
    }

    deinit {
        try? epoll.descriptor.close()
        try? timerFD.descriptor.close()
        try? signalFD?.descriptor.close()
    }

    /// The current instant on `CLOCK_MONOTONIC`, the clock timers run on.
    package var now: MonotonicInstant { .now }

    // MARK: Descriptors

    /// Watches `fd` for `interest` and calls `handler` while it is ready (level-triggered:
    /// again on every turn until the handler has read or written what it can).
    /// `.hangup` and `.error` are reported even if not asked for, and keep being reported, so
    /// a handler that sees them should unregister the descriptor.
    /// The loop does not take ownership: ``unregister(_:)`` before closing `fd`.
    package func register(
        _ fd: FileDescriptor, for interest: IOEvents, handler: @escaping IOHandler
    ) throws(SystemError) {
        lastGeneration &+= 1
        try epoll.add(fd, for: interest, data: Self.token(fd, lastGeneration))
        registrations[fd.rawValue] = Registration(generation: lastGeneration, handler: handler)
    }

    /// Changes what a registered `fd` is watched for, such as adding `.writable` while output
    /// is queued.
    package func modify(_ fd: FileDescriptor, for interest: IOEvents) throws(SystemError) {
        guard let registration = registrations[fd.rawValue] else {
            preconditionFailure("descriptor \(fd.rawValue) is not registered")
        }
        try epoll.modify(fd, for: interest, data: Self.token(fd, registration.generation))
    }

    /// Stops watching `fd`. Reports for it already collected in this turn are dropped, even if
    /// its number is reused by a descriptor registered meanwhile.
    package func unregister(_ fd: FileDescriptor) throws(SystemError) {
        registrations[fd.rawValue] = nil
        registrations.releaseSpareCapacity()
        try epoll.remove(fd)
    }

    // MARK: Timers

    /// Calls `handler` at `deadline`, then every `interval` if one is given, until cancelled.
    @discardableResult
    package func schedule(
        at deadline: MonotonicInstant, repeating interval: Duration? = nil,
        _ handler: @escaping TimerHandler
    ) -> TimerID {
        timers.schedule(at: deadline, repeating: interval, handler)
    }

    /// Calls `handler` after `delay`, then every `interval` if one is given, until cancelled.
    @discardableResult
    package func schedule(
        after delay: Duration, repeating interval: Duration? = nil,
        _ handler: @escaping TimerHandler
    ) -> TimerID {
        schedule(at: now + delay, repeating: interval, handler)
    }

    /// Cancels a timer; it will not fire again. Cancelling a fired one-shot timer does nothing.
    package func cancel(_ timer: TimerID) {
        timers.cancel(timer)
    }

    // MARK: Signals

    /// Routes `signals` to `handler` through a signalfd; they no longer interrupt the process.
    /// Call it once, on the thread that will run the loop and before any other thread starts
    /// (see ``SignalFD``), so that a signal sent to the process cannot reach another thread.
    ///
    /// One signal is handled per turn, and the others wait for the next: a handler whose work
    /// raises a signal again (a log line that meets a broken pipe) cannot keep the loop from
    /// the rest of its events.
    package func handleSignals(
        _ signals: Set<Signal>, _ handler: @escaping SignalHandler
    ) throws(SystemError) {
        precondition(signalFD == nil, "handleSignals(_:_:) may be called once")
        let signalFD = try SignalFD(signals)
        self.signalFD = signalFD
        try register(signalFD.descriptor, for: .readable) { loop, _ in
            if let signal = try? signalFD.read() { handler(loop, signal) }
        }
    }

    // MARK: Running

    /// Waits for and dispatches events until ``stop()`` is called (or ``Remote/stop()`` from
    /// another thread). Each return from epoll_wait counts as one of ``Remote/wakeups``.
    package func run() throws(SystemError) {
        defer { stopRequested = false }
        while !stopRequested {
            try armTimerFD()
            try epoll.wait(into: &events)
            remote.countWakeup()
            for event in events {
                let fd = Int32(truncatingIfNeeded: event.data)
                guard let registration = registrations[fd],
                    registration.generation == UInt32(truncatingIfNeeded: event.data >> 32)
                else { continue }
                registration.handler(self, event.events)
            }
        }
    }

    /// Makes ``run()`` return once the handlers of the current turn have run.
    package func stop() {
        stopRequested = true
    }

    // MARK: Internals

    /// The epoll value for a registration: the descriptor in the low half and the
    /// registration's generation in the high half, so stale reports can be recognised.
    private static func token(_ fd: FileDescriptor, _ generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd.rawValue))
    }

    /// Arms the timerfd for the earliest timer, or disarms it when there is none.
    private func armTimerFD() throws(SystemError) {
        let earliest = timers.earliestDeadline
        guard earliest != armedDeadline else { return }
        if let earliest {
            try timerFD.arm(at: earliest)
        } else {
            try timerFD.disarm()
        }
        armedDeadline = earliest
    }

    private func fireDueTimers() {
        // The timerfd is one-shot and has expired, so it is disarmed now.
        armedDeadline = nil
        _ = try? timerFD.readExpirations()
        let now = now
        while let timer = timers.popDue(at: now) {
            timer.handler(self)
        }
    }

    private func runJobs() {
        _ = try? remote.eventFD.drain()
        for job in remote.takeJobs() {
            job(self)
        }
    }
}
