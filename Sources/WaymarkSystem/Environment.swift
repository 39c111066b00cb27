import Glibc

/// The process's environment variables (getenv(3)).
package enum Environment {
    /// The value of the environment variable `name`, or `nil` when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
