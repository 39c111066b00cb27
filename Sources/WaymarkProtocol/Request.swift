package import WaymarkJSON

/// A client's request: `{"id":1,"op":"startLiveUpdates","configuration":"fitness"}`.
package struct Request: Hashable, Sendable {
    /// The client's id for the request, echoed in the reply.
    package var id: MessageID
    /// What the request asks for.
    package var operation: Operation

    /// Creates a request.
    package init(id: MessageID, operation: Operation) {
        self.id = id
        self.operation = operation
    }

    /// Writes the request's object: `id`, `op`, then the operation's parameters.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.key("id")
        id.write(to: &buffer)
        buffer.member("op", text: operation.name.rawValue)
        operation.writeParameters(to: &buffer)
        buffer.endObject()
    }

    /// The request as a line, newline included.
    package var line: [UInt8] { MessageLine.bytes { write(to: &$0) } }

    /// Decodes a line (without its newline). Members the operation does not define are ignored.
    package init(line: some Collection<UInt8>) throws(RejectedRequest) {
        let fields: Fields
        do throws(ProtocolError) {
            fields = try MessageLine.fields(line)
        } catch {
            throw RejectedRequest(id: nil, operation: nil, error: error)
        }
        let id = fields.object["id"].flatMap(MessageID.init(json:))
        let checked: (id: MessageID, name: OperationName)
        do throws(ProtocolError) {
            checked = try Self.header(fields, id: id)
        } catch {
            let unknown = error.code == .unknownOperation ? (try? fields.string("op")).flatMap(Self.echoed) : nil
            throw RejectedRequest(id: id, operation: nil, unknownOperation: unknown, error: error)
        }
        do throws(ProtocolError) {
            self.init(id: checked.id, operation: try Operation(checked.name, fields))
        } catch {
            throw RejectedRequest(id: checked.id, operation: checked.name, error: error)
        }
    }

    /// The valid id and the known operation of a request.
    private static func header(_ fields: Fields, id: MessageID?) throws(ProtocolError) -> (id: MessageID, name: OperationName) {
        guard let id else {
            let expected = "an integer or a string of at most \(ProtocolLimits.maximumIDLength) bytes"
            throw ProtocolError(.invalidMessage, fields.object["id"] == nil ? "id: missing (expected \(expected))" : "id: expected \(expected)")
        }
        let op = try fields.string("op")
        guard let name = OperationName(rawValue: op) else {
            throw ProtocolError(.unknownOperation, echoed(op).map { "unknown operation \"\($0)\"" } ?? "unknown operation (a name of \(op.utf8.count) bytes)")
        }
        return (id, name)
    }

    /// An unknown `op` as its reply echoes it: nil when longer than
    /// ``ProtocolLimits/maximumEchoedOperationLength``, so that the reply fits a line.
    private static func echoed(_ op: String) -> String? {
        op.utf8.count <= ProtocolLimits.maximumEchoedOperationLength ? op : nil
    }
}

/// A line that is not a valid request, with what could be read of it for the error reply.
package struct RejectedRequest: Error, Hashable, Sendable {
    /// The request's id, if it had a valid one.
    package var id: MessageID?
    /// The operation, if it named a known one.
    package var operation: OperationName?
    /// The `op` it named, if that is no operation of the protocol (echoed in the reply).
    package var unknownOperation: String?
    /// Why it was rejected.
    package var error: ProtocolError

    /// The error reply the request gets.
    package var reply: Reply {
        Reply(id: id, operation: operation, unknownOperation: unknownOperation, outcome: .failure(error))
    }
}
