import Glibc

/// The process's resource limits (getrlimit(2), setrlimit(2)).
package enum ResourceLimits {
    /// Raises the soft limit on open descriptors to the hard limit (each client is one
    /// descriptor) and returns the limit now in force.
    @discardableResult
    package static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
