import Glibc

/// The value of the environment variable `name`, or `nil` when it is not set.
internal func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
