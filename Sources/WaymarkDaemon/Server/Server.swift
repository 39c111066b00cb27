import WaymarkAuthorization
import WaymarkConnection
package import WaymarkEngine
import WaymarkFix
package import WaymarkEventLoop
package import WaymarkLocation
import WaymarkProtocol
package import WaymarkSystem

/// The daemon's socket server: accepts clients on a Unix socket, reads their requests, hands
/// them to the ``AgentService``, and writes replies and updates back, all on the event loop's
/// thread (`docs/protocol.md`).
///
/// No client can slow the loop or crowd out the others (`docs/protocol.md`, "Limits"): every
/// socket is nonblocking with a small kernel send buffer; each connection gets a few requests
/// handled per turn, and none while its replies are unread; each client's updates coalesce
/// in the daemon; unfinished input is bounded in total and per user; a user may hold only so
/// many connections, and each must say `hello` in time.
///
/// The server holds its agent strongly; the agent should hold the server (its ``UpdateSink``)
/// weakly.
package final class Server: UpdateSink {
    /// How it listens and what it allows.
    package let configuration: ServerConfiguration
    /// What it has done so far.
    package internal(set) var counters = ServerCounters()

    let agent: any AgentService
    /// Who may have what (docs/authorization.md).
    let authorizer: Authorizer
    /// Every app's monitors (shared with the agent, which evaluates them).
    package let monitors: MonitorCenter
    /// The policy of each app that opened a monitor, as its last connection had it: what the
    /// app may have of its monitors and how it is relaunched while it is away.
    var monitorPolicies: [AppIdentity: EffectivePolicy] = [:]
    /// The apps asked to start because a monitor event waits for them.
    var monitorRelaunches = MonitorRelaunches()
    /// Monitor events a request made, sent after its reply.
    var monitorDeliveriesAfterReply: [MonitorDelivery] = []
    let log: (String) -> Void
    private(set) var loop: EventLoop?
    private var listener: UnixListener?
    /// The timer that watches the listening sockets again, while accepting rests.
    private var acceptResumption: TimerID?
    /// The gpsd endpoint's listeners (``ServerConfiguration/gpsd``), while it serves.
    var gpsdListeners: [GpsdListener] = []
    /// The last reports written for gpsd's clients and the location and satellites they were
    /// made from: every watching client with the same view of a fix gets the same bytes.
    var lastGpsdReports: (location: Location, sky: SkyView?, bytes: [UInt8])?
    /// gpsd clients watching the receiver's sentences, and the sentences being read.
    var sentenceWatchers: Set<ClientID> = []
    var relayedSentences = LineBuffer(maximumLength: Server.maximumRelayedSentence)
    var connections: [ClientID: Connection] = [:]
    /// Who holds which subscription and request.
    var holdings = Holdings()
    /// Connections per peer user.
    private var connectionsPerUser: [UInt32: Int] = [:]
    /// What the connections' line buffers hold, per user and in all.
    var inputBudget: InputBudget
    /// Connections to serve on the next turn without waiting for their sockets.
    var nextTurn: [Connection] = []
    private var helloDeadlines = HelloDeadlines()
    private var helloTimer: TimerID?
    /// Bytes of buffers freed since the heap was last trimmed.
    private var releasedSinceTrim = 0
    private var isTrimScheduled = false
    private var lastClientID: ClientID = 0
    /// Set by ``stop()``: clients that leave now keep nothing.
    private var isStopping = false
    /// The timer at the earliest deadline of what apps that left keep (``Holdings``).
    var keptTimer: (id: TimerID, deadline: MonotonicInstant)?
    /// What each subscription of an enforcing daemon was started with, and whether the agent
    /// runs it (``reconsiderDemand(of:)``).
    var demands: [SubscriptionID: SubscriptionDemand] = [:]
    /// Updates kept for subscriptions re-taken by `startLiveUpdates`, to send after its reply.
    var retakenUpdates: [SubscriptionID: [KeptUpdates.Entry]] = [:]
    /// The last update sent and its JSON: the agent hands the same update to every
    /// subscription of a configuration, and it is encoded once for all of them.
    private var lastEncoded: (update: LocationUpdate, json: [UInt8])?

    /// Creates a server for `agent`; `log` receives one line per notable event (a client
    /// disconnected for being slow, a failed accept).
    /// `authorizer` decides what each client gets (by default nothing is enforced);
    /// `monitors` are every app's (by default kept in memory only).
    package init(
        configuration: ServerConfiguration, agent: any AgentService, authorizer: Authorizer = .unenforced(),
        monitors: MonitorCenter = .unkept(), log: @escaping (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.agent = agent
        self.authorizer = authorizer
        self.monitors = monitors
        inputBudget = InputBudget(
            total: configuration.maximumBufferedInputBytes, perUser: configuration.maximumBufferedInputBytesPerUser)
        self.log = log
        authorizer.peers = self
        authorizer.decisionChanged = { [unowned self] client in reconsiderDemand(of: client) }
        // The monitors' fix demand follows at once: a revoked app's conditions cost no fix.
        authorizer.authorizationChanged = { [agent] in agent.monitorsChanged() }
        authorizer.sendSessionDiagnostics = { [unowned self] client, session, flags in
            guard let connection = connections[client] else { return }
            connection.link.output.append(message: Event.sessionDiagnosticsLine(session: session.rawValue, diagnostics: flags))
            if !connection.link.interest.contains(.writable) { flush(connection) }
        }
        monitors.access = { [unowned self] app in monitorAccess(of: app) }
    }

    /// The number of connected clients.
    package var clientCount: Int { connections.count }
    /// Bytes the clients' unfinished input holds now.
    package var bufferedInputBytes: Int { inputBudget.used }

    /// Listens (``makeListener(for:)``) and starts accepting on `loop`.
    package func start(on loop: EventLoop) throws(SystemError) {
        precondition(self.loop == nil, "a server starts once")
        let descriptors = ResourceLimits.raiseOpenFileLimit()
        if descriptors < configuration.maximumClients + 64 {
            log("only \(descriptors) descriptors may be open: fewer than \(configuration.maximumClients) clients will fit")
        }
        let listener = try makeListener(for: configuration)
        do throws(SystemError) {
            try loop.register(listener.descriptor, for: .readable) { [weak self] _, _ in self?.acceptClients() }
            if let gpsd = configuration.gpsd { try startGpsd(gpsd, on: loop) }
        } catch {
            try? loop.unregister(listener.descriptor)
            try? listener.close()
            throw error
        }
        self.listener = listener
        self.loop = loop
    }

    /// Disconnects every client (telling the agent: nothing is kept for them to re-take) and
    /// closes and removes the socket.
    package func stop() {
        isStopping = true
        for id in Array(connections.keys) { disconnect(id, reason: nil) }
        if let listener {
            try? loop?.unregister(listener.descriptor)
            try? listener.close()
        }
        listener = nil
        stopGpsd()
    }

    // MARK: Connections

    /// Connections accepted per turn of the loop at most: each costs a few system calls (its
    /// peer's `/proc` facts among them), and thousands connecting at once must not hold the
    /// loop from the clients already connected; the loop reports the listener again on its
    /// next turn while connections wait.
    static let maximumAcceptsPerTurn = 64

    private func acceptClients() {
        guard let listener else { return }
        for descriptor in acceptWaiting(listener.accept) {
            admit(descriptor) { () throws(SystemError) in try descriptor.peerProcess() }
        }
    }

    /// Accepts waiting connections with `accept`, at most ``maximumAcceptsPerTurn``. Out of
    /// descriptors or memory, it stops accepting for a while (``pauseAccepting(after:)``).
    func acceptWaiting(_ accept: () throws(SystemError) -> FileDescriptor?) -> [FileDescriptor] {
        var accepted: [FileDescriptor] = []
        while accepted.count < Self.maximumAcceptsPerTurn {
            do throws(SystemError) {
                guard let descriptor = try accept() else { break }
                accepted.append(descriptor)
            } catch {
                if Self.exhaustionErrors.contains(error.errno) {
                    pauseAccepting(after: error)
                } else {
                    log("accept failed: \(error)")
                }
                break
            }
        }
        return accepted
    }

    /// The errors of accept(2) that last while the daemon holds what it holds: the process's
    /// or the system's descriptors, or the kernel's memory, are used up.
    static let exhaustionErrors: Set<Int32> = [
        Errno.processOutOfDescriptors, Errno.systemOutOfFiles, Errno.noBufferSpace, Errno.outOfMemory,
    ]
    /// How long the listeners rest after such an error, unless a connection closes first.
    static let acceptPause: Duration = .seconds(1)

    /// Stops watching the listening sockets until ``acceptPause`` has passed or a connection
    /// closes: the connection waiting stays readable and, accepted on every turn, would fail
    /// again at once and the loop would spin, with one log line each time.
    private func pauseAccepting(after error: SystemError) {
        guard let loop, acceptResumption == nil else { return }
        log("accept failed: \(error); not accepting for \(Self.acceptPause) or until a connection closes")
        for descriptor in listeningDescriptors { try? loop.modify(descriptor, for: []) }
        acceptResumption = loop.schedule(after: Self.acceptPause) { [weak self] _ in self?.resumeAccepting() }
    }

    /// Watches the listening sockets again after ``pauseAccepting(after:)``.
    func resumeAccepting() {
        guard let loop, let resumption = acceptResumption else { return }
        loop.cancel(resumption)
        acceptResumption = nil
        for descriptor in listeningDescriptors { try? loop.modify(descriptor, for: .readable) }
    }

    /// The daemon's socket and the gpsd endpoint's.
    private var listeningDescriptors: [FileDescriptor] {
        (listener.map { [$0.descriptor] } ?? []) + gpsdListeners.map(\.descriptor)
    }

    /// Admits the client on `descriptor`, whose peer is `peer` (nil: unknown, refused);
    /// `gpsd`, if given, is its gpsd side: then it speaks gpsd's protocol from the start.
    func admit(_ descriptor: FileDescriptor, gpsd: GpsdClient? = nil, peer: () throws(SystemError) -> PeerProcess?) {
        guard connections.count < configuration.maximumClients else {
            log("refused a client: \(configuration.maximumClients) are connected already")
            try? descriptor.close()
            return
        }
        do throws(SystemError) {
            guard let peer = try peer() else {
                log("refused a client: the kernel names no peer process")
                try? descriptor.close()
                return
            }
            let credentials = peer.credentials
            let user = credentials.uid
            let held = connectionsPerUser[user, default: 0]
            guard held < configuration.connectionLimit(of: user) else {
                counters.clientsRefusedOverUserCap += 1
                log("refused a client of uid \(user): it holds \(held) connections already")
                try? descriptor.close()
                return
            }
            try descriptor.setSendBufferSize(configuration.sendBufferBytes)
            lastClientID = lastClientID.next
            let connection = Connection(
                id: lastClientID, descriptor: descriptor, peer: peer, policies: configuration.policies, gpsd: gpsd)
            try loop?.register(descriptor, for: connection.link.interest) { [weak self] _, events in
                self?.handle(events, on: connection.id)
            }
            connections[connection.id] = connection
            connectionsPerUser[user] = held + 1
            counters.connectionsAccepted += 1
            agent.clientConnected(connection.id, credentials: credentials)
            if connection.gpsd != nil { greetGpsdClient(connection) } else { expectHello(from: connection) }
        } catch {
            log("refused a client: \(error)")
            try? descriptor.close()
        }
    }

    // MARK: Hello timeout

    private func expectHello(from connection: Connection) {
        guard let loop else { return }
        helloDeadlines.append(connection.id, deadline: loop.now + configuration.helloTimeout)
        if helloTimer == nil { scheduleHelloTimer() }
    }

    /// `id` said `hello` or left: it waits for no deadline, and the timer stops once no
    /// connection waits, so an idle daemon does not wake for a client long gone.
    func stopAwaitingHello(from id: ClientID) {
        helloDeadlines.remove(id)
        guard helloDeadlines.earliest == nil, let helloTimer else { return }
        loop?.cancel(helloTimer)
        self.helloTimer = nil
    }

    private func scheduleHelloTimer() {
        guard let loop, let earliest = helloDeadlines.earliest else { return }
        helloTimer = loop.schedule(at: earliest) { [weak self] loop in
            guard let self else { return }
            helloTimer = nil
            for id in helloDeadlines.popDue(at: loop.now) {
                guard let connection = connections[id], !connection.isGreeted, connection.takesRequests else { continue }
                counters.clientsClosedWithoutHello += 1
                refuse(connection, ProtocolError(.helloRequired, "no hello within \(configuration.helloTimeout); closing the connection"))
            }
            scheduleHelloTimer()
        }
    }

    /// Answers `connection` with `error`, reads nothing more from it, and closes it once the
    /// error is written.
    func refuse(_ connection: Connection, _ error: ProtocolError) {
        connection.closesWhenFlushed = true
        releaseInput(of: connection)
        send(Reply(id: nil, operation: nil, outcome: .failure(error)), to: connection)
    }

    private func handle(_ events: IOEvents, on id: ClientID) {
        if events.contains(.readable), let connection = connections[id] { serve(connection) }
        if events.contains(.writable), let connection = connections[id] { flush(connection) }
        if !events.isDisjoint(with: [.hangup, .error]), connections[id] != nil { disconnect(id, reason: nil) }
    }

    /// Closes a connection; `reason`, if any, is logged. What it held ends, or, unless it said
    /// `bye` or the server stops, waits for its app to re-take it (``keepHoldings(of:)``).
    func disconnect(_ id: ClientID, reason: String?) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connections.releaseSpareCapacity()
        stopAwaitingHello(from: id)
        if let reason { log("client \(id) (pid \(connection.credentials.pid)) disconnected: \(reason)") }
        let user = connection.credentials.uid
        let held = connectionsPerUser[user, default: 1] - 1
        connectionsPerUser[user] = held == 0 ? nil : held
        releasedSinceTrim += connection.link.output.messageBytes
        releaseInput(of: connection)
        sentenceWatchers.remove(id)
        if connection.closesWhenFlushed { discardUnreadInput(of: connection) }
        // What it delegated ends with it.
        let delegatedTo = holdings.delegations.receivers(givenBy: id)
        // A gpsd client cannot re-take anything: what it held ends with it, as after `bye`.
        let keeps = connection.bye == nil && connection.gpsd == nil && !isStopping
        let holding = keeps ? keepHoldings(of: connection) : holdings.removeClient(id)
        authorizer.clientDisconnected(id)
        inUseChanged(delegatedTo.sorted())
        endDemand(holding.subscriptions)
        try? loop?.unregister(connection.descriptor)
        try? connection.descriptor.close()
        agent.clientDisconnected(id, releasing: holding.subscriptions, holding.requests)
        if let app = connection.app { releaseMonitors(connection.openMonitors.values, of: app) }
        resumeAccepting()  // a descriptor is free
    }

    /// Reads and drops what the client sent and the daemon will not read (a bounded amount),
    /// so that closing does not reset the connection: a Unix socket closed with unread data
    /// makes the peer's reads fail with ECONNRESET, and the client would lose the last reply
    /// (`bye`'s, or the error saying why it is closed).
    private func discardUnreadInput(of connection: Connection) {
        withUnsafeTemporaryAllocation(byteCount: Self.readSize, alignment: 1) { buffer in
            for _ in 0..<16 {
                guard let count = try? connection.descriptor.read(into: buffer), count > 0 else { return }
            }
        }
    }

    /// Frees a connection's input buffer and returns its bytes to the budget; once enough
    /// was freed (with what connections that closed left unread), the heap is trimmed on the
    /// next turn, so that memory goes back to the system after many connections close (glibc
    /// keeps freed memory otherwise).
    private func releaseInput(of connection: Connection) {
        releasedSinceTrim += connection.bufferedInputBytes
        _ = inputBudget.change(connection.credentials.uid, from: connection.bufferedInputBytes, to: 0)
        connection.link.lines = LineBuffer()
        connection.bufferedInputBytes = 0
        connection.hasUnhandledInput = false
        guard releasedSinceTrim >= 1 << 20, !isTrimScheduled, let loop else { return }
        isTrimScheduled = true
        loop.schedule(after: .zero) { [weak self] _ in
            Heap.releaseFreedMemory()
            self?.isTrimScheduled = false
            self?.releasedSinceTrim = 0
        }
    }

    // MARK: Writing

    /// Queues a reply and writes what the socket takes.
    func send(_ reply: Reply, to connection: Connection) {
        send(line: ServerMessage.reply(reply).line, to: connection)
    }

    /// Queues a message (a reply, a monitor event, gpsd's lines) and writes what the socket
    /// takes; a client that leaves more than ``ServerConfiguration/maximumQueuedReplyBytes``
    /// unread is disconnected as slow.
    func send(line: [UInt8], to connection: Connection) {
        connection.link.output.append(message: line)
        guard !disconnectedForUnreadMessages(connection) else { return }
        flush(connection)
    }

    /// Disconnects a client that leaves more than
    /// ``ServerConfiguration/maximumQueuedReplyBytes`` of messages unread, or that lags while
    /// its user's connections, or all, leave more than their share; whether it did.
    private func disconnectedForUnreadMessages(_ connection: Connection) -> Bool {
        let unread = connection.link.output.messageBytes
        let reason: String
        if unread > configuration.maximumQueuedReplyBytes {
            reason = "more than \(configuration.maximumQueuedReplyBytes) bytes of messages unread"
        } else if unread <= configuration.laggingClientBytes {
            return false
        } else {
            let user = connection.credentials.uid
            var (everyone, users) = (0, 0)
            for other in connections.values {
                everyone += other.link.output.messageBytes
                if other.credentials.uid == user { users += other.link.output.messageBytes }
            }
            if users > configuration.maximumQueuedMessageBytesPerUser {
                reason = "\(unread) bytes of messages unread, while uid \(user)'s connections leave more than \(configuration.maximumQueuedMessageBytesPerUser)"
            } else if everyone > configuration.maximumQueuedMessageBytes {
                reason = "\(unread) bytes of messages unread, while all connections leave more than \(configuration.maximumQueuedMessageBytes)"
            } else {
                return false
            }
        }
        counters.slowClientsDisconnected += 1
        disconnect(connection.id, reason: reason)
        return true
    }

    /// Writes queued output until it is all written or the socket is full; closes the
    /// connection after `bye` once everything is written.
    func flush(_ connection: Connection) {
        guard connections[connection.id] === connection else { return }
        if case .failed = connection.link.flush(messagesStarted: &counters.messagesOut) {
            disconnect(connection.id, reason: nil)
            return
        }
        if connection.closesWhenFlushed && connection.link.output.isEmpty {
            disconnect(connection.id, reason: nil)
            return
        }
        if connection.hasUnhandledInput && connection.link.output.messageBytes == 0 { serveNextTurn(connection) }
        updateInterest(connection)
    }

    func updateInterest(_ connection: Connection) {
        guard let loop else { return }
        do throws(SystemError) {
            try connection.link.watch(for: connection.wantedInterest, on: loop)
        } catch {
            disconnect(connection.id, reason: "\(error)")
        }
    }

    // MARK: UpdateSink

    package func send(_ update: LocationUpdate, subscription: SubscriptionID) {
        guard let client = holdings.holder(of: subscription), let connection = connections[client] else {
            keep(update, for: subscription)
            return
        }
        holdings.delivered(update, for: subscription)
        let authorized = authorizer.authorize(update, for: client, subscription: subscription)
        if connection.gpsd != nil {
            connection.gpsd?.mayReadSentences = authorized?.location != nil && authorized?.location == update.location
            if let authorized { sendGpsdReports(of: authorized, to: connection) }
            return
        }
        guard let update = authorized else { return }
        let state = OutputQueue.StreamState(update)
        counters.updatesCoalesced += connection.link.output.append(
            encodedUpdate: encoded(update), state: state, subscription: subscription.rawValue)
        // While the loop waits for room in the socket, writing now would only fail.
        if !connection.link.interest.contains(.writable) { flush(connection) }
    }

    package func send(batch updates: [LocationUpdate], overflow: Int, subscription: SubscriptionID) {
        guard let client = holdings.holder(of: subscription), let connection = connections[client] else {
            for update in updates { keep(update, for: subscription) }
            return
        }
        if let last = updates.last { holdings.delivered(last, for: subscription) }
        // What the app may see now, as every other update; a batch is messages, never coalesced.
        let encodedUpdates = updates.compactMap { authorizer.authorize($0, for: client, subscription: subscription).map(UpdateEvent.encode) }
        guard !encodedUpdates.isEmpty else { return }
        for line in BatchEvent.lines(subscription: subscription.rawValue, encodedUpdates: encodedUpdates, overflow: overflow) {
            connection.link.output.append(message: line)
        }
        guard !disconnectedForUnreadMessages(connection) else { return }
        if !connection.link.interest.contains(.writable) { flush(connection) }
    }

    private func encoded(_ update: LocationUpdate) -> [UInt8] {
        if let lastEncoded, lastEncoded.update == update { return lastEncoded.json }
        let json = UpdateEvent.encode(update)
        lastEncoded = (update, json)
        return json
    }

    package func send(_ result: Result<Location, LocationError>, request: RequestID) {
        guard let (client, id) = holdings.takeRequest(request) else {
            keep(result, for: request)
            return
        }
        guard let connection = connections[client] else { return }
        let outcome = result.mapError { error in
            switch error {
            case .locationUnknown: ProtocolError(.locationUnknown, "no location could be had before the timeout")
            case .denied: ProtocolError(.authorizationDenied, "the app is not authorized to use location")
            }
        }.flatMap { authorizer.authorize($0, for: client) }.map(ReplyResult.location)
        send(Reply(id: id, operation: .requestLocation, outcome: outcome), to: connection)
        holdImplicitSession(client)
        if connection.bye != nil { sayGoodbyeIfDone(connection) }
    }
}
