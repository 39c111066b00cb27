import Glibc

/// Runs a C call that reports failure as -1 with `errno`, retrying it while it is interrupted
/// by a signal (EINTR), and turns any other failure into a ``SystemError`` naming `call`.
internal func check<Result: FixedWidthInteger>(
    _ call: String, _ argument: String? = nil, _ body: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        if Glibc.errno != EINTR { throw SystemError.last(call, argument) }
    }
}

/// Returns `nil` instead of throwing when a nonblocking call would block (EAGAIN).
internal func nilIfWouldBlock<Value>(
    _ body: () throws(SystemError) -> Value
) throws(SystemError) -> Value? {
    do throws(SystemError) {
        return try body()
    } catch let error where error.errno == EAGAIN {
        return nil
    }
}
