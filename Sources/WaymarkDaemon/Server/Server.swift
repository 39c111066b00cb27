import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// The daemon's socket server: accepts clients on a Unix socket, reads their requests, hands
/// them to the ``AgentService``, and writes replies and updates back, all on the event loop's
/// thread (`docs/protocol.md`).
///
/// A client that stops reading never slows the loop or the others: every socket is
/// nonblocking, each client's updates coalesce to the newest per subscription, and a client
/// whose unread replies pass ``ServerConfiguration/maximumQueuedReplyBytes`` is disconnected.
///
/// The server holds its agent strongly; the agent should hold the server (its ``UpdateSink``)
/// weakly.
public final class Server: UpdateSink {
    /// How it listens and what it allows.
    public let configuration: ServerConfiguration
    /// What it has done so far.
    public private(set) var counters = ServerCounters()

    let agent: any AgentService
    let log: (String) -> Void
    private(set) var loop: EventLoop?
    private var listener: UnixListener?
    var connections: [ClientID: Connection] = [:]
    /// Every live subscription's client.
    var subscriptions: [SubscriptionID: ClientID] = [:]
    /// Every pending request's client.
    var requests: [RequestID: ClientID] = [:]
    private var lastClientID: ClientID = 0
    var lastSubscriptionID: SubscriptionID = 0
    var lastRequestID: RequestID = 0
    /// The last update sent and its JSON: the agent hands the same update to every
    /// subscription of a configuration, and it is encoded once for all of them.
    private var lastEncoded: (update: LocationUpdate, json: [UInt8])?

    /// Creates a server for `agent`; `log` receives one line per notable event (a client
    /// disconnected for being slow, a failed accept).
    public init(configuration: ServerConfiguration, agent: any AgentService, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.agent = agent
        self.log = log
    }

    /// The number of connected clients.
    public var clientCount: Int { connections.count }

    /// Listens (``makeListener(for:)``) and starts accepting on `loop`.
    public func start(on loop: EventLoop) throws(SystemError) {
        precondition(self.loop == nil, "a server starts once")
        let descriptors = ResourceLimits.raiseOpenFileLimit()
        if descriptors < configuration.maximumClients + 64 {
            log("only \(descriptors) descriptors may be open: fewer than \(configuration.maximumClients) clients will fit")
        }
        let listener = try makeListener(for: configuration)
        do throws(SystemError) {
            try loop.register(listener.descriptor, for: .readable) { [weak self] _, _ in self?.acceptClients() }
        } catch {
            try? listener.close()
            throw error
        }
        self.listener = listener
        self.loop = loop
    }

    /// Disconnects every client (telling the agent) and closes and removes the socket.
    public func stop() {
        for id in Array(connections.keys) { disconnect(id, reason: nil) }
        if let listener {
            try? loop?.unregister(listener.descriptor)
            try? listener.close()
        }
        listener = nil
    }

    // MARK: Connections

    private func acceptClients() {
        guard let listener else { return }
        while true {
            let accepted: FileDescriptor?
            do throws(SystemError) {
                accepted = try listener.accept()
            } catch {
                log("accept failed: \(error)")
                return
            }
            guard let descriptor = accepted else { return }
            admit(descriptor)
        }
    }

    private func admit(_ descriptor: FileDescriptor) {
        guard connections.count < configuration.maximumClients else {
            log("refused a client: \(configuration.maximumClients) are connected already")
            try? descriptor.close()
            return
        }
        do throws(SystemError) {
            let credentials = try descriptor.peerCredentials()
            lastClientID += 1
            let connection = Connection(id: lastClientID, descriptor: descriptor, credentials: credentials)
            try loop?.register(descriptor, for: connection.interest) { [weak self] _, events in
                self?.handle(events, on: connection.id)
            }
            connections[connection.id] = connection
            counters.connectionsAccepted += 1
            agent.clientConnected(connection.id, credentials: credentials)
        } catch {
            log("refused a client: \(error)")
            try? descriptor.close()
        }
    }

    private func handle(_ events: IOEvents, on id: ClientID) {
        if events.contains(.readable) { read(from: id) }
        if events.contains(.writable), let connection = connections[id] { flush(connection) }
        if !events.isDisjoint(with: [.hangup, .error]), connections[id] != nil { disconnect(id, reason: nil) }
    }

    /// Closes a connection and forgets everything it held; `reason`, if any, is logged.
    func disconnect(_ id: ClientID, reason: String?) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        if let reason { log("client \(id) (pid \(connection.credentials.pid)) disconnected: \(reason)") }
        for subscription in connection.subscriptions { subscriptions[subscription] = nil }
        for request in connection.requests.keys { requests[request] = nil }
        try? loop?.unregister(connection.descriptor)
        try? connection.descriptor.close()
        agent.clientDisconnected(id)
    }

    // MARK: Reading

    private func read(from id: ClientID) {
        guard let connection = connections[id] else { return }
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 1) { buffer in
            // A few reads per turn at most, so one talkative client cannot hold the loop.
            for _ in 0..<4 {
                guard connections[id] === connection, !connection.closesWhenFlushed else { return }
                let count: Int?
                do throws(SystemError) {
                    count = try connection.descriptor.read(into: buffer)
                } catch {
                    disconnect(id, reason: "\(error)")
                    return
                }
                guard let count else { return }
                guard count > 0 else {
                    endOfInput(connection)
                    return
                }
                for item in connection.lines.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                    guard connections[id] === connection, !connection.closesWhenFlushed else { return }
                    counters.messagesIn += 1
                    switch item {
                    case .line(let line): handle(line: line, from: connection)
                    case .tooLong:
                        let error = ProtocolError(.messageTooLarge, "a message line is longer than \(ProtocolLimits.maximumLineLength) bytes; it was discarded")
                        send(Reply(id: nil, operation: nil, outcome: .failure(error)), to: connection)
                    }
                }
            }
        }
    }

    /// The client shut down its sending side: it may still read, so the connection stays
    /// until it closes (a half-closed client such as `socat` still gets its updates).
    private func endOfInput(_ connection: Connection) {
        connection.isReading = false
        updateInterest(connection)
    }

    // MARK: Writing

    /// Queues a reply and writes what the socket takes.
    func send(_ reply: Reply, to connection: Connection) {
        connection.output.append(reply: ServerMessage.reply(reply).line)
        guard connection.output.replyBytes <= configuration.maximumQueuedReplyBytes else {
            counters.slowClientsDisconnected += 1
            disconnect(connection.id, reason: "more than \(configuration.maximumQueuedReplyBytes) bytes of replies unread")
            return
        }
        flush(connection)
    }

    /// Writes queued output until it is all written or the socket is full; closes the
    /// connection after `bye` once everything is written.
    func flush(_ connection: Connection) {
        guard connections[connection.id] === connection else { return }
        while true {
            let (bytes, isNewMessage) = connection.output.nextBytes()
            if bytes.isEmpty { break }
            if isNewMessage { counters.messagesOut += 1 }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try connection.descriptor.send(raw) }
            }
            guard case .success(let sent) = result else {
                disconnect(connection.id, reason: nil)
                return
            }
            guard let sent else { break }
            connection.output.consume(sent)
        }
        if connection.closesWhenFlushed && connection.output.isEmpty {
            disconnect(connection.id, reason: nil)
            return
        }
        updateInterest(connection)
    }

    private func updateInterest(_ connection: Connection) {
        let wanted = connection.wantedInterest
        guard wanted != connection.interest else { return }
        do throws(SystemError) {
            try loop?.modify(connection.descriptor, for: wanted)
            connection.interest = wanted
        } catch {
            disconnect(connection.id, reason: "\(error)")
        }
    }

    // MARK: UpdateSink

    public func send(_ update: LocationUpdate, subscription: SubscriptionID, to client: ClientID) {
        guard subscriptions[subscription] == client, let connection = connections[client] else { return }
        if connection.output.append(encodedUpdate: encoded(update), subscription: subscription) {
            counters.updatesCoalesced += 1
        }
        flush(connection)
    }

    private func encoded(_ update: LocationUpdate) -> [UInt8] {
        if let lastEncoded, lastEncoded.update == update { return lastEncoded.json }
        let json = UpdateEvent.encode(update)
        lastEncoded = (update, json)
        return json
    }

    public func send(_ result: Result<Location, LocationError>, request: RequestID, to client: ClientID) {
        guard requests[request] == client, let connection = connections[client],
            let id = connection.requests.removeValue(forKey: request)
        else { return }
        requests[request] = nil
        let outcome = result.map(ReplyResult.location).mapError { error in
            switch error {
            case .locationUnknown: ProtocolError(.locationUnknown, "no location could be had before the timeout")
            case .denied: ProtocolError(.authorizationDenied, "the app is not authorized to use location")
            }
        }
        send(Reply(id: id, operation: .requestLocation, outcome: outcome), to: connection)
    }
}
