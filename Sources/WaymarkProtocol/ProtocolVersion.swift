/// The version of the socket protocol and its fixed limits (`docs/protocol.md`).
package enum ProtocolVersion {
    /// The newest protocol version this build speaks.
    package static let current = 3
    /// The oldest protocol version this build speaks.
    package static let oldest = 1
}

/// Limits every peer may rely on.
package enum ProtocolLimits {
    /// The longest message line, in bytes, not counting its newline.
    package static let maximumLineLength = 65_536
    /// The deepest nesting of arrays and objects in a message.
    package static let maximumDepth = 16
    /// The longest string `id`, UTF-8 bytes: every reply echoes its request's id, and a reply
    /// must fit a line.
    package static let maximumIDLength = 256
    /// The longest unknown `op` a reply echoes, UTF-8 bytes (every operation's name is shorter).
    package static let maximumEchoedOperationLength = 64
    /// The longest error message, UTF-8 bytes: a message that quotes a client's value (a
    /// 65,000-digit number, an unknown name) is cut, so that the reply fits a line.
    package static let maximumErrorMessageLength = 1_024
}
