import WaymarkSystem

/// Ctrl-C (SIGINT) and SIGTERM turned into a call that stops a command cleanly, where their
/// default action ends the process wherever it stands.
enum Interruption {
    /// Runs `body` once, on a thread of its own, when SIGINT or SIGTERM first arrives. The
    /// signals then get their default action back, so a second one ends the process at once.
    /// Without an eventfd or a thread to give, the signals keep their default action.
    static func onInterrupt(_ body: @escaping @Sendable () -> Void) {
        let signals: [Signal] = [.interrupt, .terminate]
        guard let notice = try? EventFD() else { return }
        do throws(SystemError) {
            try DetachedThread.start {
                while (try? notice.drain()) == nil {
                    _ = try? notice.descriptor.wait(for: .readable, timeout: nil)
                }
                for signal in signals { signal.restoreDefault() }
                body()
            }
        } catch {
            try? notice.descriptor.close()
            return
        }
        for signal in signals { signal.notify(notice) }
    }
}
