import WaymarkLocation
import WaymarkProtocol

/// A declaration that the app needs location, and at what authorization: Core Location's
/// `CLServiceSession`. Holding one (with `.whenInUse` or `.always`) is how an app asks the
/// operator for authorization; its ``diagnostics`` say what stands in the way. Sessions layer:
/// holding several is their union, and ending one keeps the others. A session ends when
/// ``invalidate()`` is called or it is released.
///
/// ```swift
/// let session = ServiceSession(authorization: .whenInUse)
/// for try await diagnostic in session.diagnostics {
///     if diagnostic.authorizationRequestInProgress { print("waiting for the operator") }
/// }
/// ```
public final class ServiceSession: Sendable {
    /// The authorization a session needs (`CLServiceSession.AuthorizationRequirement`).
    public enum AuthorizationRequirement: String, Hashable, Sendable, CaseIterable {
        /// No authorization: the session only declares interest.
        case none
        /// Use while the app is in use.
        case whenInUse
        /// Use at any time (effective only while a session started in use is held).
        case always
    }

    /// What stands between the session and its goal (`CLServiceSession.Diagnostic`): the
    /// authorization flags of ``WaymarkLocation/Diagnostics``, as the daemon set them for this
    /// session.
    public struct Diagnostic: Hashable, Sendable {
        private let flags: WaymarkLocation.Diagnostics

        /// The diagnostics the daemon named (names this version does not know are skipped).
        init(names: [String]) {
            var flags = WaymarkLocation.Diagnostics()
            for name in names { flags.set(named: name) }
            self.flags = flags
        }

        /// The app is denied, or location services are off.
        public var authorizationDenied: Bool { flags.authorizationDenied }
        /// Location services are off for the whole board.
        public var authorizationDeniedGlobally: Bool { flags.authorizationDeniedGlobally }
        /// A policy locks the app out.
        public var authorizationRestricted: Bool { flags.authorizationRestricted }
        /// The operator has been asked and has not answered.
        public var authorizationRequestInProgress: Bool { flags.authorizationRequestInProgress }
        /// The app is not in use, so it cannot be asked, or its authorization is not effective.
        public var insufficientlyInUse: Bool { flags.insufficientlyInUse }
        /// The app's policy requires explicit sessions.
        public var serviceSessionRequired: Bool { flags.serviceSessionRequired }
        /// Full accuracy was asked for (a `fullAccuracyPurposeKey`) and refused.
        public var fullAccuracyDenied: Bool { flags.fullAccuracyDenied }
        /// The goal is `always` and the app is authorized less.
        public var alwaysAuthorizationDenied: Bool { flags.alwaysAuthorizationDenied }
        /// The names of the flags that are set.
        public var names: [String] { flags.names }
    }

    /// The session's diagnostics, each time they change (the first when the daemon has
    /// decided); it ends when the session is invalidated.
    public struct Diagnostics: AsyncSequence, Sendable {
        public typealias Element = Diagnostic
        fileprivate let stream: AsyncThrowingStream<[String], any Error>

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(names: stream.makeAsyncIterator()) }

        /// Iterates the diagnostics.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var names: AsyncThrowingStream<[String], any Error>.AsyncIterator

            /// The next diagnostics; `nil` once the session is invalidated.
            public mutating func next() async throws -> Diagnostic? {
                try await names.next().map(Diagnostic.init(names:))
            }
        }
    }

    /// What the session needs.
    public let authorization: AuthorizationRequirement
    /// The purpose for which it asks for temporary full accuracy, if it does.
    public let fullAccuracyPurposeKey: String?
    /// Its diagnostics.
    public let diagnostics: Diagnostics
    private let token: UInt64
    private let client: DaemonClient

    /// Holds a session that needs `authorization`.
    public convenience init(authorization: AuthorizationRequirement) {
        self.init(authorization: authorization, fullAccuracyPurposeKey: nil, client: .shared)
    }

    /// Holds a session that needs `authorization` and asks for temporary full accuracy for
    /// the purpose `fullAccuracyPurposeKey` (1 to 64 of `A-Za-z0-9.-_`).
    public convenience init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
        self.init(authorization: authorization, fullAccuracyPurposeKey: fullAccuracyPurposeKey, client: .shared)
    }

    init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String?, client: DaemonClient) {
        self.authorization = authorization
        self.fullAccuracyPurposeKey = fullAccuracyPurposeKey
        self.client = client
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [String].self, bufferingPolicy: .bufferingNewest(16))
        let token = client.makeToken()
        let request = ServiceSessionRequest(
            authorization: ServiceSessionAuthorization(rawValue: authorization.rawValue) ?? .none,
            fullAccuracyPurposeKey: fullAccuracyPurposeKey)
        client.execute({ $0.startSession(token, request, continuation) }, unavailable: { continuation.finish(throwing: $0) })
        diagnostics = Diagnostics(stream: stream)
        self.token = token
    }

    /// Ends the session (as releasing it does).
    public func invalidate() {
        client.execute({ [token] in $0.stopSession(token) }, unavailable: { _ in })
    }

    deinit { invalidate() }
}
