import Synchronization
import WaymarkSystem

extension EventLoop {
    /// The part of an event loop that other threads may use: hand it work, stop it, and read
    /// how often it woke up. Everything else about the loop belongs to the loop's thread.
    package final class Remote: Sendable {
        /// Work for the loop's thread, given the loop.
        package typealias Job = @Sendable (EventLoop) -> Void

        internal let eventFD: EventFD
        private let jobs = Mutex<[Job]>([])
        private let wakeupCount = Atomic<Int>(0)

        internal init() throws(SystemError) {
            eventFD = try EventFD()
        }

        deinit {
            try? eventFD.descriptor.close()
        }

        /// How many times the loop's epoll_wait has returned: its wakeups. An idle loop (no
        /// timer due, no descriptor ready) does not add to it.
        package var wakeups: Int {
            wakeupCount.load(ordering: .relaxed)
        }

        /// Runs `job` on the loop's thread at its next turn, from any thread. Jobs run in the
        /// order they were handed over; jobs handed over after the loop ends never run.
        package func execute(_ job: @escaping Job) {
            jobs.withLock { $0.append(job) }
            wakeUp()
        }

        /// Makes the loop return from its wait and take a turn, from any thread.
        package func wakeUp() {
            do {
                try eventFD.signal()
            } catch {
                // eventfd writes only fail with errors that trap (EBADF, EFAULT).
                preconditionFailure("\(error)")
            }
        }

        /// Asks the loop to stop, from any thread: ``EventLoop/run()`` returns after this turn.
        package func stop() {
            execute { $0.stop() }
        }

        internal func countWakeup() {
            wakeupCount.add(1, ordering: .relaxed)
        }

        /// Removes and returns the jobs handed over so far.
        internal func takeJobs() -> [Job] {
            jobs.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
        }
    }
}
