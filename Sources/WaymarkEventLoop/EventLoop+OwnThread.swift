package import WaymarkSystem

extension EventLoop {
    /// Runs the loop on a new thread of its own until it stops, then calls `finished` on that
    /// thread with how ``run()`` ended. From then on the loop belongs to that thread: other
    /// threads reach it only through ``remote``. Throws, and runs nothing, when no thread can
    /// be started.
    package func runOnOwnThread(
        finished: @escaping @Sendable (Result<Void, SystemError>) -> Void = { _ in }
    ) throws(SystemError) {
        nonisolated(unsafe) let loop = self
        try DetachedThread.start {
            finished(Result { () throws(SystemError) in try loop.run() })
        }
    }
}
