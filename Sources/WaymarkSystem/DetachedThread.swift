import Glibc

/// A POSIX thread that runs one body to its end and is never joined (pthread_create(3),
/// pthread_detach(3)): the event loop's own thread.
package enum DetachedThread {
    /// Starts a thread running `body`. Throws when the system has no thread to give (EAGAIN).
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError(errno: status, call: "pthread_create")
        }
        pthread_detach(thread)
    }

    /// What the thread runs, carried through pthread_create's context pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
