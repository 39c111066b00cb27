/// The version of the socket protocol and its fixed limits (`docs/protocol.md`).
public enum ProtocolVersion {
    /// The newest protocol version this build speaks.
    public static let current = 1
    /// The oldest protocol version this build speaks.
    public static let oldest = 1
}

/// Limits every peer may rely on.
public enum ProtocolLimits {
    /// The longest message line, in bytes, not counting its newline.
    public static let maximumLineLength = 65_536
    /// The deepest nesting of arrays and objects in a message.
    public static let maximumDepth = 16
}
