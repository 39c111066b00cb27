package import WaymarkJSON

/// Anything the daemon sends: a reply to a request or an event.
package enum ServerMessage: Hashable, Sendable {
    /// A reply (the message has no `event` member).
    case reply(Reply)
    /// An event (the message has an `event` member).
    case event(Event)

    /// Decodes a line (without its newline). Members a message does not define are ignored.
    package init(line: some Collection<UInt8>) throws(ProtocolError) {
        let fields = try MessageLine.fields(line)
        self = fields.object["event"] == nil ? .reply(try Reply(fields)) : .event(try Event(fields))
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
