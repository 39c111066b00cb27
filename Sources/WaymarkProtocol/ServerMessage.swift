package import WaymarkJSON

/// Anything the daemon sends: a reply to a request or an event.
package enum ServerMessage: Hashable, Sendable {
    /// A reply (the message has no `event` member).
    case reply(Reply)
    /// An event (the message has an `event` member).
    case event(Event)

    /// Decodes a line (without its newline). Members a message does not define are ignored.
    /// A reply that does not decode but whose `id` does is that request's failure, with what
    /// is wrong, so that whoever waits for it is answered.
    package init(line: some Collection<UInt8>) throws(ProtocolError) {
        let fields = try MessageLine.fields(line)
        guard fields.object["event"] == nil else {
            self = .event(try Event(fields))
            return
        }
        do throws(ProtocolError) {
            self = .reply(try Reply(fields))
        } catch {
            guard let id = try? fields.optional("id", "an integer or a string", MessageID.init(json:)) else { throw error }
            self = .reply(Reply(id: id, operation: nil, outcome: .failure(error)))
        }
    }

    /// Writes the message's object.
    package func write(to buffer: inout JSONBuffer) {
        switch self {
        case .reply(let reply): reply.write(to: &buffer)
        case .event(let event): event.write(to: &buffer)
        }
    }

    /// The message as a line, newline included.
    package var line: [UInt8] { MessageLine.bytes { write(to: &$0) } }
}
