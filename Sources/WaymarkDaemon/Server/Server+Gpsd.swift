import WaymarkConnection
import WaymarkEngine
import WaymarkEventLoop
import WaymarkFix
import WaymarkGpsd
import WaymarkJSON
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem
package import WaymarkTime

/// One of the gpsd endpoint's listening sockets: TCP on 127.0.0.1, or the Unix socket.
enum GpsdListener {
    case tcp(LoopbackTCPListener)
    case unix(UnixListener)

    var descriptor: FileDescriptor {
        switch self {
        case .tcp(let listener): listener.descriptor
        case .unix(let listener): listener.descriptor
        }
    }

    func accept() throws(SystemError) -> FileDescriptor? {
        switch self {
        case .tcp(let listener): try listener.accept()
        case .unix(let listener): try listener.accept()
        }
    }

    /// What tells who is on the other end of the connections accepted together: `nil` on the
    /// Unix socket (each has `SO_PEERCRED`); over TCP the kernel's socket table, read once for
    /// all of them (``LoopbackSocketOwner/Table``).
    func peerTable() throws(SystemError) -> LoopbackSocketOwner.Table? {
        guard case .tcp(let listener) = self else { return nil }
        return try LoopbackSocketOwner.Table.read(connectedTo: listener.endpoint)
    }

    /// Who is on the other end of `connection`, accepted here: by `SO_PEERCRED` on the Unix
    /// socket, by `table` (its uid only) over TCP.
    func peer(of connection: FileDescriptor, in table: LoopbackSocketOwner.Table?) throws(SystemError) -> PeerProcess? {
        if let table { try connection.loopbackPeerProcess(in: table) } else { try connection.peerProcess() }
    }

    func close() {
        switch self {
        case .tcp(let listener): try? listener.close()
        case .unix(let listener): try? listener.close()
        }
    }
}

/// gpsd's clients (docs/ecosystem.md, "gpsd clients"): a second dialect of the same
/// connections. A gpsd client is a consumer like any other: it is admitted under the same
/// bounds, its identity is its uid (it says no `hello`), a `?WATCH` that enables reports
/// holds a live-updates subscription in ``Holdings`` (so its authorization and reduced
/// accuracy apply, and it shows in `status`), and it keeps nothing when it leaves.
extension Server {
    /// The TCP port gpsd's clients connect to, while the endpoint serves.
    package var gpsdPort: UInt16? {
        for listener in gpsdListeners { if case .tcp(let tcp) = listener { return tcp.port } }
        return nil
    }

    /// Listens on the endpoint's TCP port and Unix socket.
    func startGpsd(_ endpoint: GpsdEndpoint, on loop: EventLoop) throws(SystemError) {
        var listeners: [GpsdListener] = []
        do throws(SystemError) {
            listeners.append(.tcp(try LoopbackTCPListener(port: endpoint.port)))
            listeners.append(.unix(try UnixListener(path: endpoint.socketPath, mode: configuration.mode)))
            for listener in listeners {
                try loop.register(listener.descriptor, for: .readable) { [weak self] _, _ in self?.acceptGpsdClients(on: listener) }
            }
        } catch {
            for listener in listeners {
                try? loop.unregister(listener.descriptor)
                listener.close()
            }
            throw error
        }
        gpsdListeners = listeners
    }

    /// Closes the endpoint's sockets (its clients are disconnected with the others).
    func stopGpsd() {
        for listener in gpsdListeners {
            try? loop?.unregister(listener.descriptor)
            listener.close()
        }
        gpsdListeners = []
    }

    private func acceptGpsdClients(on listener: GpsdListener) {
        guard let endpoint = configuration.gpsd else { return }
        let accepted = acceptWaiting(listener.accept)
        guard !accepted.isEmpty else { return }
        let table = Result { () throws(SystemError) in try listener.peerTable() }
        for descriptor in accepted {
            let client = GpsdClient(session: GpsdSession(device: endpoint.device, release: configuration.daemonVersion))
            admit(descriptor, gpsd: client) { () throws(SystemError) in try listener.peer(of: descriptor, in: table.get()) }
        }
    }

    /// A gpsd client just connected: it is who its uid says (there is no `hello` in gpsd's
    /// protocol) and is greeted as gpsd greets, with VERSION.
    func greetGpsdClient(_ connection: Connection) {
        connection.isGreeted = true
        let app = identify(connection, declaredAppID: nil)
        authorizer.clientIdentified(connection.id, Hello(), as: app)
        agent.clientIdentified(connection.id, appID: nil)
        log("gpsd client \(connection.id) (uid \(connection.credentials.uid)) is \(app)")
        var buffer = JSONBuffer()
        connection.gpsd?.session.writeGreeting(to: &buffer)
        send(line: buffer.bytes, to: connection)
    }

    /// Reads once from a gpsd client into its session (its commands end at `;`, not lines).
    func readGpsdCommands(from connection: Connection) -> LineConnection.ReadOutcome {
        connection.link.readOnce(size: Self.readSize) { connection.gpsd?.session.receive($0) }
    }

    /// Answers the next command the gpsd client sent, if its bytes end one, and returns
    /// whether they did. A `?POLL` answers from the last fix the client may see, without
    /// asking for one (the receiver is not powered for it), with the satellites when it sees
    /// that fix unreduced.
    func answerNextGpsdCommand(of connection: Connection) -> Bool {
        var buffer = JSONBuffer()
        let last = agent.lastKnownLocation()?.location
        let latest = (try? authorizer.lastLocation(last, for: connection.id)) ?? nil
        // Satellites' azimuths and elevations at a known time place the receiver too: they go
        // only with the last location as it is.
        let sky = latest != nil && latest == last ? agent.sky : nil
        let answered = connection.gpsd?.session.answerNextCommand(
            latest: latest, sky: sky, now: Timestamp(nanosecondsSinceEpoch: RealtimeInstant.now.nanosecondsSinceEpoch),
            into: &buffer)
        guard answered == true else { return false }
        counters.messagesIn += 1
        send(line: buffer.bytes, to: connection)
        if isConnected(connection) { holdWatchSubscription(of: connection) }
        return true
    }

    /// Makes the client's subscription follow its WATCH: held while it watches for reports.
    /// It is a subscription like an app's `liveUpdates(.default)`: it pauses while the
    /// device is stationary.
    private func holdWatchSubscription(of connection: Connection) {
        if connection.gpsd?.session.watch.wantsSentences == true {
            sentenceWatchers.insert(connection.id)
        } else {
            sentenceWatchers.remove(connection.id)
        }
        let watching = connection.gpsd?.session.wantsLocations == true
        switch (watching, connection.gpsd?.subscription) {
        case (true, nil):
            let terms = Holdings.LiveTerms(configuration: .default, options: DeliveryOptions())
            let subscription = holdings.addSubscription(for: connection.id, terms)
            connection.gpsd?.subscription = subscription
            holdImplicitSession(connection.id)
            startSubscription(subscription, configuration: terms.configuration, options: terms.options, for: connection.id)
        case (false, let subscription?):
            connection.gpsd?.subscription = nil
            try? unsubscribe(subscription, connection)
        default: break
        }
    }

    /// Sends a gpsd client the reports of an update it may see (authorized and reduced as
    /// for any app): TPV, SKY and GST when it has a location, a mode 1 TPV when it says no
    /// fix can be had (`locationUnavailable`), nothing else without a location. SKY lists
    /// the satellites only to a client whose update came unreduced (as the sentences).
    func sendGpsdReports(of update: LocationUpdate, to connection: Connection) {
        // Before the reports kept for the last client: they are not this one's if it watches without json.
        guard connection.gpsd?.session.watch.wantsReports == true else { return }
        guard let location = update.location else {
            guard update.diagnostics.locationUnavailable else { return }
            var buffer = JSONBuffer()
            connection.gpsd?.session.writeNoFix(into: &buffer)
            if !buffer.bytes.isEmpty { send(line: buffer.bytes, to: connection) }
            return
        }
        let sky = connection.gpsd?.mayReadSentences == true ? agent.sky : nil
        if let last = lastGpsdReports, last.location == location, last.sky == sky { return send(line: last.bytes, to: connection) }
        var buffer = JSONBuffer()
        connection.gpsd?.session.writeReports(for: location, sky: sky, into: &buffer)
        guard !buffer.bytes.isEmpty else { return }
        lastGpsdReports = (location, sky, buffer.bytes)
        send(line: buffer.bytes, to: connection)
    }

    /// The longest sentence relayed: NMEA's 82 bytes, with room for proprietary ones.
    static let maximumRelayedSentence = 256

    /// The receiver's bytes as read (``WaymarkInput/ReceiverBytesSource``): each complete
    /// sentence (`$` or `!` to its line end) goes, CR LF ended, to the gpsd clients watching
    /// with `nmea` or `raw` that may read it (their last update came unreduced). Nothing is
    /// kept while no client watches; a line over 256 bytes is dropped.
    package func relay(receiverBytes bytes: UnsafeRawBufferPointer) {
        guard !sentenceWatchers.isEmpty else { return }
        relayedSentences.append(bytes)
        while let item = relayedSentences.nextItem() {
            guard case .line(var sentence) = item, sentence.first == UInt8(ascii: "$") || sentence.first == UInt8(ascii: "!")
            else { continue }
            sentence += [0x0D, 0x0A]
            for client in sentenceWatchers {
                guard let connection = connections[client], connection.gpsd?.mayReadSentences == true else { continue }
                send(line: sentence, to: connection)
            }
        }
    }

    /// A time sample (``TimeService``): its PPS or TOFF report goes to each gpsd client
    /// watching for it (``WaymarkGpsd/GpsdWatch/wantsTime(from:)``), encoded once for all. Time
    /// carries no location, so it goes whatever the client may see of locations; a sample is
    /// only made while the receiver runs for someone whose subscription is a demand.
    package func relay(time sample: TimeSample) {
        guard let device = configuration.gpsd?.device.path else { return }
        let watchers = connections.values.filter { $0.gpsd?.session.watch.wantsTime(from: sample.source) == true }
        guard !watchers.isEmpty else { return }
        var buffer = JSONBuffer()
        GpsdTimeReport(sample: sample, device: device).write(to: &buffer)
        buffer.carriageReturnNewline()
        for connection in watchers where connections[connection.id] === connection {
            send(line: buffer.bytes, to: connection)
        }
    }
}
