import WaymarkConnection
import WaymarkProtocol
import WaymarkSystem
import WaymarkEventLoop

extension Server {
    /// Bytes read from a client at once: one read per connection per turn.
    static let readSize = 16_384

    /// Handles a connection's requests for this turn: the lines already read, then what one
    /// read brings, at most ``ServerConfiguration/maximumRequestsPerTurn`` of them, and none
    /// while its replies wait unwritten (the client is not reading them: it is not read either
    /// until it does). What is left waits for the next turn, so every client and source gets
    /// its turn however much one client sends.
    func serve(_ connection: Connection) {
        var handled = 0
        var hasRead = false
        connection.hasUnhandledInput = false
        while isConnected(connection), connection.takesRequests {
            guard connection.link.output.messageBytes == 0, handled < configuration.maximumRequestsPerTurn else {
                connection.hasUnhandledInput = true
                if connection.link.output.messageBytes == 0 { serveNextTurn(connection) }
                break
            }
            if connection.gpsd != nil {
                if answerNextGpsdCommand(of: connection) {
                    handled += 1
                    continue
                }
            } else if let item = connection.link.lines.nextItem() {
                handled += 1
                handle(item, from: connection)
                continue
            }
            guard isConnected(connection), account(connection), !hasRead, connection.isReading else { break }
            hasRead = true
            guard read(from: connection) else { break }
        }
        if isConnected(connection) { updateInterest(connection) }
    }

    /// Reads once from `connection` into its line buffer; returns whether bytes came.
    private func read(from connection: Connection) -> Bool {
        let outcome = connection.gpsd == nil
            ? connection.link.readOnce(size: Self.readSize)
            : readGpsdCommands(from: connection)
        switch outcome {
        case .read: return account(connection)
        case .nothingYet: return false
        case .endOfFile where connection.gpsd != nil:
            // gpsd lets a client go at the end of its input, and only that tells a TCP client
            // that closed from one that shut down its sending side: the kernel reports no
            // hangup for it until a write fails, and none comes while nothing is sent.
            disconnect(connection.id, reason: "end of input")
            return false
        case .endOfFile:
            // The client shut down its sending side: it may still read, so the connection
            // stays until it closes (a half-closed client such as `socat` still gets its
            // updates; the Unix socket reports its close as a hangup).
            connection.isReading = false
            return false
        case .failed(let error):
            disconnect(connection.id, reason: "\(error)")
            return false
        }
    }

    /// Brings the budget up to date with what `connection`'s line buffer holds; a connection
    /// that takes its user or everyone over budget is refused. Returns whether it was not.
    private func account(_ connection: Connection) -> Bool {
        let bytes = connection.heldInputBytes
        let user = connection.credentials.uid
        guard inputBudget.change(user, from: connection.bufferedInputBytes, to: bytes) else {
            connection.bufferedInputBytes = bytes
            counters.clientsRefusedOverInputBudget += 1
            let held = inputBudget.used(by: user)
            refuse(connection, ProtocolError(.limitExceeded, held > inputBudget.perUser
                ? "unfinished lines of uid \(user) hold more than \(inputBudget.perUser) bytes; closing the connection"
                : "unfinished lines of all clients hold more than \(inputBudget.total) bytes; closing the connection"))
            return false
        }
        connection.bufferedInputBytes = bytes
        return true
    }

    private func handle(_ item: LineBuffer.Item, from connection: Connection) {
        counters.messagesIn += 1
        switch item {
        case .line(let line): handle(line: line, from: connection)
        case .tooLong:
            let error = ProtocolError(.messageTooLarge, "a message line is longer than \(ProtocolLimits.maximumLineLength) bytes; it was discarded")
            send(Reply(id: nil, operation: nil, outcome: .failure(error)), to: connection)
        }
    }

    func isConnected(_ connection: Connection) -> Bool { connections[connection.id] === connection }

    /// Serves `connection` again on the next turn, after every other ready descriptor.
    func serveNextTurn(_ connection: Connection) {
        guard !connection.isQueuedForNextTurn, let loop else { return }
        connection.isQueuedForNextTurn = true
        if nextTurn.isEmpty {
            loop.schedule(after: .zero) { [weak self] _ in self?.serveQueued() }
        }
        nextTurn.append(connection)
    }

    private func serveQueued() {
        let queued = nextTurn
        nextTurn = []
        for connection in queued {
            connection.isQueuedForNextTurn = false
            if isConnected(connection) { serve(connection) }
        }
    }
}
