import Glibc

/// The process's environment variables (getenv(3)).
public enum Environment {
    /// The value of the environment variable `name`, or `nil` when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
