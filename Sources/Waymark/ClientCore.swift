import WaymarkConnection
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// The process's connection to the daemon, confined to the client's I/O thread: it connects,
/// says hello, (re)starts subscriptions, routes replies and updates, and after losing the
/// daemon tells every live sequence so (``Diagnostics/daemonUnavailable``) and reconnects
/// with backoff while any sequence is live.
///
/// What the process asks for goes to the daemon that listens now: a connection the daemon hung
/// up on (it restarted just before, and this thread has not read the hangup yet) is ended
/// first, as the loop would have, and a new one made. A request written when the connection
/// turns out to be closed is sent once more on a new one (``sendNew(_:_:)``); one the daemon
/// may have read when it went is not: it fails with ``WaymarkError/daemonUnavailable(_:)``, as
/// does one the daemon leaves unanswered past its patience (``limitWait(for:_:patience:)``).
final class ClientCore {
    typealias UpdateContinuation = AsyncThrowingStream<LocationUpdate, any Error>.Continuation
    typealias ReplyHandler = (Result<ReplyResult, WaymarkError>) -> Void
    typealias SessionContinuation = AsyncThrowingStream<[String], any Error>.Continuation

    private struct HeldServiceSession {
        let request: ServiceSessionRequest
        let continuation: SessionContinuation
        /// The daemon's id once it accepted the session on the current connection.
        var daemonID: UInt64?
    }

    private struct Subscription {
        let configuration: LiveConfiguration
        let options: DeliveryOptions
        let continuation: UpdateContinuation
        /// The daemon's id once it accepted the subscription on the current connection.
        var daemonID: UInt64?
        /// Whether it was told about the current outage already.
        var knowsDaemonIsUnavailable = false
    }

    private static let firstReconnectDelay = Duration.milliseconds(100)
    /// How long a connect waits while the daemon's queue of new connections is full.
    private static let connectPatience = Duration.seconds(2)
    private static let longestReconnectDelay = Duration.seconds(5)

    private let loop: EventLoop
    private let paths: () -> [String]
    private let trust: SocketTrust
    private let appID: String?
    private let usageDescription: String?
    /// The connection to the daemon, while there is one.
    var link: LineConnection?
    private var subscriptions: [UInt64: Subscription] = [:]
    /// The background activity sessions held, by their local id, with the daemon's id once it
    /// started (or re-took) them on the current connection (`ClientCore+Activity.swift`).
    var activities: [UInt64: Activity] = [:]
    private var localIDs: [UInt64: UInt64] = [:]
    private var sessions: [UInt64: HeldServiceSession] = [:]
    /// Sessions by the daemon's id, on the current connection.
    private var sessionIDs: [UInt64: UInt64] = [:]
    private var handlers: [Int64: ReplyHandler] = [:]
    /// The monitors held, by their local id (`ClientCore+Monitors.swift`).
    var monitors: [UInt64: OpenMonitor] = [:]
    /// Monitors by the daemon's number, on the current connection.
    var monitorIDs: [UInt64: UInt64] = [:]
    /// The visit monitors the process holds, by local number.
    var visitMonitors: [UInt64: VisitContinuation] = [:]
    /// The newest sequence of a kept visit passed on: older ones are repeats.
    var newestVisitSequence: UInt64 = 0
    /// What waits for a monitor to be open on the current connection.
    var monitorOpened: [UInt64: [(Result<Void, WaymarkError>) -> Void]] = [:]
    /// Each unanswered location request's id, by its ``PendingReply``.
    private var locationRequests: [ObjectIdentifier: Int64] = [:]
    /// The deadline of each request that waits for its reply with limited patience
    /// (``limitWait(for:_:patience:)``), by the request's id.
    private var answerDeadlines: [Int64: TimerID] = [:]
    /// How long a one-shot request waits for its reply: the daemon answers those in the turn
    /// that reads them, well within a second even on a loaded board, so one silent for 30 s
    /// (unless told) is stopped or stalled.
    private let answerPatience: Duration
    private var lastRequestID: Int64 = 0
    private var reconnectDelay = firstReconnectDelay
    private var reconnectTimer: TimerID?
    var lastFailure = "not connected yet"

    /// A core on `loop` that looks for the daemon at `paths()` (tried in order, at every
    /// attempt), believes only a socket `trust` accepts, and introduces itself as `appID`, which
    /// needs location for `usageDescription`; a one-shot request waits `answerPatience` at most
    /// for its reply.
    init(
        loop: EventLoop, paths: @escaping () -> [String], trust: SocketTrust, appID: String?, usageDescription: String? = nil,
        answerPatience: Duration = .seconds(30)
    ) {
        self.loop = loop
        self.answerPatience = answerPatience
        self.paths = paths
        self.trust = trust
        self.appID = appID
        self.usageDescription = usageDescription
    }

    // MARK: Live updates

    /// Starts a sequence's subscription; updates go to `continuation`.
    func subscribe(_ local: UInt64, _ configuration: LiveConfiguration, _ options: DeliveryOptions, _ continuation: UpdateContinuation) {
        let linked = hasLiveLink()
        subscriptions[local] = Subscription(configuration: configuration, options: options, continuation: continuation)
        if linked {
            start(local)
        } else if connect() == false {
            announceUnavailable()
            scheduleReconnect()
        }
    }

    /// Ends a sequence's subscription (the loop was left, the task cancelled, the sequence
    /// dropped); tells the daemon if it knew it.
    func unsubscribe(_ local: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: local) else { return }
        subscription.continuation.finish()
        if let daemonID = subscription.daemonID {
            localIDs[daemonID] = nil
            send(.stopLiveUpdates(subscription: daemonID)) { _ in }
        }
        if subscriptions.isEmpty { cancelReconnect() }
    }

    private func start(_ local: UInt64) {
        guard let subscription = subscriptions[local] else { return }
        send(.startLiveUpdates(subscription.configuration, subscription.options)) { [unowned self] result in
            switch result {
            case .success(.subscription(let daemonID)):
                guard subscriptions[local] != nil else {
                    // The sequence ended while the daemon was starting it.
                    send(.stopLiveUpdates(subscription: daemonID)) { _ in }
                    return
                }
                subscriptions[local]?.daemonID = daemonID
                subscriptions[local]?.knowsDaemonIsUnavailable = false
                localIDs[daemonID] = local
            case .success, .failure(.daemonUnavailable):
                break
            case .failure(let error):
                subscriptions.removeValue(forKey: local)?.continuation.finish(throwing: error)
            }
        }
    }

    // MARK: Location requests

    /// Asks for one location; `pending` is resumed with the answer. Nothing is asked if the
    /// caller was cancelled already.
    func requestLocation(_ request: LocationRequest, _ pending: PendingReply<Location>) {
        guard !pending.isResumed else { return }
        let key = ObjectIdentifier(pending)
        let id = sendNew(.requestLocation(request)) { [unowned self] result in
            locationRequests[key] = nil
            switch result {
            case .success(.location(let location)): pending.resume(with: .success(location))
            case .success(let other): pending.resume(with: .failure(WaymarkError.refused(code: "invalidMessage", message: "unexpected result \(other)")))
            case .failure(.refused(code: "locationUnknown", _)): pending.resume(with: .failure(LocationError.locationUnknown))
            case .failure(.refused(code: "authorizationDenied", _)): pending.resume(with: .failure(LocationError.denied))
            case .failure(let error): pending.resume(with: .failure(error))
            }
        }
        // The daemon answers by the request's timeout; a little later, it is stalled.
        guard let id = limitWait(for: id, .requestLocation, patience: request.timeout + .seconds(2)) else { return }
        locationRequests[key] = id
    }

    /// Withdraws the request of a cancelled caller (already resumed), so that the daemon
    /// releases the receiver at once.
    func cancelRequest(_ pending: PendingReply<Location>) {
        guard let id = locationRequests.removeValue(forKey: ObjectIdentifier(pending)) else { return }
        forget(id)
        send(.cancelRequest(request: .number(id))) { _ in }
    }

    // MARK: One-shot requests

    /// Sends `operation` (status, authorization, the operator's requests); `pending` is
    /// resumed with its result, or with `daemonUnavailable` after ``answerPatience``.
    func call(_ operation: Operation, _ pending: PendingReply<ReplyResult>) {
        let id = sendNew(operation) { result in pending.resume(with: result.mapError { $0 }) }
        limitWait(for: id, operation.name)
    }

    /// Gives request `id` (if it waits for its reply) `patience`, ``answerPatience`` unless
    /// told, after which its handler gets `daemonUnavailable` and a late reply is dropped: a
    /// daemon that stopped answering (stopped, stalled, or another program on the socket)
    /// holds no caller. Returns `id` if it waits.
    @discardableResult
    func limitWait(for id: Int64?, _ operation: OperationName, patience: Duration? = nil) -> Int64? {
        guard let id, handlers[id] != nil else { return nil }
        let patience = patience ?? answerPatience
        answerDeadlines[id] = loop.schedule(after: patience) { [unowned self] _ in
            answerDeadlines[id] = nil
            let reason = "no answer to \(operation.rawValue) within \(patience)"
            handlers.removeValue(forKey: id)?(.failure(.daemonUnavailable(reason)))
        }
        return id
    }

    /// Stops waiting for the reply to request `id`.
    private func forget(_ id: Int64) {
        handlers[id] = nil
        if let deadline = answerDeadlines.removeValue(forKey: id) { loop.cancel(deadline) }
    }

    // MARK: Service sessions

    /// Holds a service session; its diagnostics go to `continuation`. It is started again on
    /// every new connection, as subscriptions are.
    func startSession(_ local: UInt64, _ request: ServiceSessionRequest, _ continuation: SessionContinuation) {
        let linked = hasLiveLink()
        sessions[local] = HeldServiceSession(request: request, continuation: continuation)
        if linked { startSession(local) } else if !connect() { scheduleReconnect() }
    }

    /// Releases a session.
    func stopSession(_ local: UInt64) {
        guard let session = sessions.removeValue(forKey: local) else { return }
        session.continuation.finish()
        if let daemonID = session.daemonID {
            sessionIDs[daemonID] = nil
            send(.stopServiceSession(session: daemonID)) { _ in }
        }
    }

    private func startSession(_ local: UInt64) {
        guard let request = sessions[local]?.request else { return }
        send(.startServiceSession(request)) { [unowned self] result in
            switch result {
            case .success(.session(let daemonID)):
                guard sessions[local] != nil else {
                    send(.stopServiceSession(session: daemonID)) { _ in }
                    return
                }
                sessions[local]?.daemonID = daemonID
                sessionIDs[daemonID] = local
            case .success, .failure(.daemonUnavailable):
                break
            case .failure(let error):
                sessions.removeValue(forKey: local)?.continuation.finish(throwing: error)
            }
        }
    }

    // MARK: Connection

    /// Whether the process has a connection the daemon has not hung up on. A hangup (or a
    /// half-close, or an error) this thread has not handled yet, because it came in the turn
    /// that brought the caller's request, is handled now as the loop would: what the daemon
    /// sent before it is read, then the connection ends (``disconnected(_:)``).
    func hasLiveLink() -> Bool {
        guard let socket = link?.descriptor else { return false }
        let ready: IOEvents
        do throws(SystemError) {
            ready = try socket.readiness(for: [.readable, .peerClosed], timeout: .zero)
        } catch {
            disconnected("\(error)")
            return false
        }
        // Only bytes waiting (an update, a reply): the loop reads them at its turn.
        guard !ready.isDisjoint(with: [.peerClosed, .hangup, .error]) else { return true }
        handle(ready)
        if link?.descriptor == socket { disconnected("the daemon closed the connection") }
        return link != nil
    }

    /// Whether the process has a connection the daemon has not hung up on, connecting if not.
    func connected() -> Bool {
        if !hasLiveLink() { _ = connect() }
        // A daemon that went while hearing hello ended the new connection already.
        return link != nil
    }

    /// Connects to the first trusted socket that answers, says hello and restarts every
    /// subscription. When none answers, ``lastFailure`` says why for each path tried.
    func connect() -> Bool {
        var failures: [String] = []
        for path in paths() {
            do throws(SystemError) {
                let socket = try connectTrusted(to: path)
                do throws(SystemError) {
                    try loop.register(socket, for: .readable) { [unowned self] _, events in handle(events) }
                } catch {
                    try? socket.close()
                    throw error
                }
                link = LineConnection(descriptor: socket)
                // This connection does what a pending reconnect would have.
                cancelReconnect()
                send(.hello(Hello(appID: appID, usageDescription: usageDescription))) { [unowned self] result in
                    if case .success = result { reconnectDelay = Self.firstReconnectDelay }
                }
                // Sessions first, so that the app is in use again before it re-takes its
                // subscriptions (docs/semantics.md, "Consumers that come and go").
                for local in activities.keys.sorted() { startActivity(local) }
                for local in sessions.keys.sorted() { startSession(local) }
                for local in subscriptions.keys.sorted() { start(local) }
                for local in monitors.keys.sorted() { reopenMonitor(local) }
                restartVisitMonitoring()
                return true
            } catch {
                failures.append(Self.explain(error))
            }
        }
        lastFailure = failures.joined(separator: "; then ")
        return false
    }

    /// Connects to `path` (waiting up to ``connectPatience`` while the daemon's queue is
    /// full) and keeps the connection only if `trust` accepts the directories on the way and
    /// the process listening (`docs/protocol.md`, "Connecting").
    private func connectTrusted(to path: String) throws(SystemError) -> FileDescriptor {
        let socket = try FileDescriptor.connectUnixStream(to: path, patience: Self.connectPatience)
        do throws(SystemError) {
            try trust.checkDirectories(of: path)
            try trust.checkListener(of: socket, path: path)
            return socket
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// `error` as the user reads it, with what to do about a socket they may not use.
    private static func explain(_ error: SystemError) -> String {
        guard error.errno == Errno.permissionDenied, error.call == "connect" else { return "\(error)" }
        var explained = error
        explained.note = "only root and members of the group '\(SocketTrust.serviceUserName)' may connect (docs/hardware.md)"
        return "\(explained)"
    }

    private func cancelReconnect() {
        guard let reconnectTimer else { return }
        loop.cancel(reconnectTimer)
        self.reconnectTimer = nil
    }

    func scheduleReconnect() {
        guard reconnectTimer == nil, !subscriptions.isEmpty || !activities.isEmpty || !monitors.isEmpty else { return }
        reconnectTimer = loop.schedule(after: reconnectDelay) { [unowned self] _ in
            reconnectTimer = nil
            reconnectDelay = min(reconnectDelay * 2, Self.longestReconnectDelay)
            if !connect() { scheduleReconnect() }
        }
    }

    /// Tells each subscription, once per outage, that the daemon is unavailable.
    private func announceUnavailable() {
        for local in subscriptions.keys.sorted() where subscriptions[local]?.knowsDaemonIsUnavailable == false {
            subscriptions[local]?.knowsDaemonIsUnavailable = true
            subscriptions[local]?.continuation.yield(.daemonUnavailable)
        }
    }

    /// Ends everything for good once the I/O loop has stopped: waiting callers and live
    /// sequences get `daemonUnavailable` with `reason`.
    func abandon(_ reason: String) {
        disconnected(reason)
        for local in subscriptions.keys.sorted() {
            // disconnected(_:) has told them the daemon is unavailable.
            subscriptions.removeValue(forKey: local)?.continuation.finish(throwing: WaymarkError.daemonUnavailable(reason))
        }
        for local in monitors.keys.sorted() {
            monitors.removeValue(forKey: local)?.continuation.finish(throwing: WaymarkError.daemonUnavailable(reason))
        }
    }

    private func disconnected(_ reason: String) {
        guard let socket = link?.descriptor else { return }
        try? loop.unregister(socket)
        try? socket.close()
        link = nil
        lastFailure = reason
        let waiting = handlers.sorted { $0.key < $1.key }
        handlers = [:]
        locationRequests = [:]
        for deadline in answerDeadlines.values { loop.cancel(deadline) }
        answerDeadlines = [:]
        for (_, handler) in waiting { handler(.failure(.daemonUnavailable(reason))) }
        localIDs = [:]
        for local in subscriptions.keys { subscriptions[local]?.daemonID = nil }
        for local in activities.keys { activities[local]?.daemonID = nil }
        sessionIDs = [:]
        for local in sessions.keys { sessions[local]?.daemonID = nil }
        monitorIDs = [:]
        for local in monitors.keys { monitors[local]?.daemonID = nil }
        announceUnavailable()
        scheduleReconnect()
    }

    // MARK: Reading and writing

    private func handle(_ events: IOEvents) {
        if events.contains(.readable) { read() }
        if events.contains(.writable) { flush() }
        if !events.isDisjoint(with: [.hangup, .error]) { disconnected("the daemon closed the connection") }
    }

    private func read() {
        guard let socket = link?.descriptor, let outcome = link?.readOnce(size: 65_536) else { return }
        switch outcome {
        case .failed(let error): disconnected("\(error)")
        case .nothingYet: break
        case .endOfFile: disconnected("the daemon closed the connection")
        case .read:
            // A line handled may end this connection (and a reconnect start another).
            while link?.descriptor == socket, let item = link?.lines.nextItem() {
                guard case .line(let line) = item else {
                    // Past the protocol's limit: no daemon of any version sends one.
                    disconnected("the daemon sent a line longer than \(ProtocolLimits.maximumLineLength) bytes")
                    return
                }
                receive(line)
            }
        }
    }

    private func receive(_ line: [UInt8]) {
        let message: ServerMessage
        do throws(ProtocolError) {
            message = try ServerMessage(line: line)
        } catch {
            // Lines this version cannot read (newer events) are skipped; a line that is not
            // JSON at all is not from a Waymark daemon, or from a broken one.
            if error.code == .malformedJSON { disconnected("the daemon sent a line that is not a JSON message (\(error.message))") }
            return
        }
        switch message {
        case .reply(let reply):
            guard case .number(let id)? = reply.id, let handler = handlers[id] else { return }
            forget(id)
            handler(reply.outcome.mapError { .refused(code: $0.code.rawValue, message: $0.message) })
        case .event(.update(let event)):
            guard let local = localIDs[event.subscription] else { return }
            subscriptions[local]?.continuation.yield(event.update)
        case .event(.batch(let batch)):
            // A deferred subscription's batch (or part): its updates in the order taken.
            guard let local = localIDs[batch.subscription], let continuation = subscriptions[local]?.continuation else { return }
            for update in batch.updates { continuation.yield(update) }
        case .event(.sessionDiagnostics(let session, let diagnostics)):
            guard let local = sessionIDs[session] else { return }
            sessions[local]?.continuation.yield(diagnostics)
        case .event(.monitorEvent(let monitor, let sequence, let event)):
            receiveMonitorEvent(monitor, sequence: sequence, event)
        case .event(.visit(let sequence, let visit)):
            receiveVisit(visit, sequence: sequence)
        }
    }

    /// Sends a request on the current connection and returns its id; `handler` gets its
    /// reply, or `daemonUnavailable` if the connection ends first (then the id is `nil` when it
    /// had ended already).
    @discardableResult
    func send(_ operation: Operation, _ handler: @escaping ReplyHandler) -> Int64? {
        guard link != nil else {
            handler(.failure(.daemonUnavailable(lastFailure)))
            return nil
        }
        let id = queue(operation, handler)
        flush()
        return id
    }

    /// Sends a request the process makes now (not one a new connection replays) and returns
    /// its id: on a connection the daemon has not hung up on, made if needed (``connected()``).
    /// If the socket refuses the request's line because the daemon went between that check and
    /// the write (EPIPE, ECONNRESET), the daemon never had the whole line, so cannot have acted
    /// on it: it is sent once more, on a new connection. `handler` gets the reply, or
    /// `daemonUnavailable` when no daemon answers or the connection ends after the write.
    @discardableResult
    func sendNew(_ operation: Operation, _ handler: @escaping ReplyHandler) -> Int64? {
        for _ in 0..<2 {
            guard connected() else { break }
            let id = queue(operation, handler)
            guard let error = write() else { return id }
            let refused = Self.meansDaemonWent(error)
            if refused { handlers[id] = nil }
            disconnected(Self.reason(error))
            if !refused { return id }
        }
        handler(.failure(.daemonUnavailable(lastFailure)))
        return nil
    }

    /// Queues a request on the current connection; `handler` waits for its reply.
    private func queue(_ operation: Operation, _ handler: @escaping ReplyHandler) -> Int64 {
        lastRequestID += 1
        handlers[lastRequestID] = handler
        link?.output.append(message: Request(id: .number(lastRequestID), operation: operation).line)
        return lastRequestID
    }

    private func flush() {
        if let error = write() { disconnected(Self.reason(error)) }
    }

    /// Writes what is queued and has the loop watch for room for the rest; the error if the
    /// socket failed (the connection is not ended then).
    private func write() -> SystemError? {
        var started = 0
        guard let outcome = link?.flush(messagesStarted: &started) else { return nil }
        if case .failed(let error) = outcome { return error }
        let wanted: IOEvents = link?.output.isEmpty == false ? [.readable, .writable] : .readable
        do throws(SystemError) {
            try link?.watch(for: wanted, on: loop)
            return nil
        } catch {
            return error
        }
    }

    /// Whether a write failed because the daemon closed its end.
    private static func meansDaemonWent(_ error: SystemError) -> Bool {
        error.errno == Errno.brokenPipe || error.errno == Errno.connectionReset
    }

    /// Why the connection ended when writing failed with `error`.
    private static func reason(_ error: SystemError) -> String {
        meansDaemonWent(error) ? "the daemon closed the connection" : "\(error)"
    }
}

extension LocationUpdate {
    /// What a live sequence gets while the daemon cannot be reached.
    static var daemonUnavailable: LocationUpdate {
        var diagnostics = Diagnostics()
        diagnostics.daemonUnavailable = true
        return LocationUpdate(location: nil, diagnostics: diagnostics)
    }
}

extension ClientCore.UpdateContinuation {
    /// Ends a live sequence that can never reach the daemon: the update that says so, then
    /// `error`.
    func finishUnavailable(_ error: WaymarkError) {
        yield(.daemonUnavailable)
        finish(throwing: error)
    }
}
