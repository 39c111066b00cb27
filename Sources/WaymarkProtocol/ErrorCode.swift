import WaymarkJSON

/// The `code` of an error reply: what went wrong, in a word a program can switch on.
package enum ErrorCode: String, Hashable, Sendable, CaseIterable {
    /// The line is not JSON.
    case malformedJSON
    /// The line is longer than ``ProtocolLimits/maximumLineLength``; it was discarded.
    case messageTooLarge
    /// The JSON is not a valid message: a member is missing, of the wrong type or out of range.
    case invalidMessage
    /// The `op` names no operation of the protocol.
    case unknownOperation
    /// The operation is part of the protocol, but a later version of the daemon brings it
    /// (the error's `availableInVersion` says which protocol version).
    case unsupportedOperation
    /// The client's protocol version is older than the daemon speaks.
    case unsupportedVersion
    /// The connection must start with `hello`.
    case helloRequired
    /// The subscription (or session, or monitor) is not held by this connection.
    case unknownSubscription
    /// `cancelRequest` named no `requestLocation` pending on this connection (answered already,
    /// or never asked).
    case unknownRequest
    /// The `requestLocation` was withdrawn by `cancelRequest` before it was answered.
    case cancelled
    /// A per-connection limit (subscriptions, pending requests) is reached.
    case limitExceeded
    /// No location could be had before the request's timeout (`kCLErrorLocationUnknown`).
    case locationUnknown
    /// The app is not authorized to use location (`kCLErrorDenied`).
    case authorizationDenied
    /// The operation needs the app in use and it is not (`startBackgroundActivitySession`;
    /// the `insufficientlyInUse` diagnostic).
    case insufficientlyInUse
    /// The operation is the operator's: the caller is neither root nor in `waymark-admin`.
    case permissionDenied
    /// The daemon failed; the message says how.
    case internalError
}

/// A structured error: the `error` member of an error reply.
package struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var code: ErrorCode
    /// A sentence for people.
    package var message: String
    /// For ``ErrorCode/unsupportedOperation``: the protocol version that brings the operation.
    package var availableInVersion: Int?

    /// Creates an error. A message longer than ``ProtocolLimits/maximumErrorMessageLength``
    /// bytes (one echoing a client's long value) is cut on a character and ends in `…`, so
    /// that the reply fits a line.
    package init(_ code: ErrorCode, _ message: String, availableInVersion: Int? = nil) {
        self.code = code
        self.message = message.cut(toUTF8Bytes: ProtocolLimits.maximumErrorMessageLength)
        self.availableInVersion = availableInVersion
    }

    package var description: String { "\(code.rawValue): \(message)" }
}
