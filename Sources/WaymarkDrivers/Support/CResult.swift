import WaymarkSystem

/// Turns a C shim result (non-negative, or -errno on failure) into a value or a
/// ``SystemError`` naming `call` and `argument`.
@inline(__always)
func checkShim(_ call: String, _ argument: String? = nil, _ result: Int32) throws(SystemError) -> Int32 {
    guard result >= 0 else { throw SystemError(errno: -result, call: call, argument: argument) }
    return result
}

/// The ``SystemError`` for the `errno` a C call just left.
func lastError(_ call: String, _ argument: String? = nil) -> SystemError {
    SystemError.fromErrno(call, argument)
}
