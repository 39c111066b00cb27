/// `nanoseconds` since the epoch as a timespec: whole seconds (floored) and the nanoseconds
/// after them (0 to 999 999 999, also before 1970), as chrony's and gpsd's records carry time.
package func splitSeconds(_ nanoseconds: Int64) -> (seconds: Int64, nanoseconds: Int64) {
    let second: Int64 = 1_000_000_000
    let remainder = nanoseconds % second
    return remainder < 0 ? (nanoseconds / second - 1, remainder + second) : (nanoseconds / second, remainder)
}
