package import WaymarkJSON

/// The daemon's answer to one request: `{"id":1,"op":"startLiveUpdates","result":{…}}` or
/// `{"id":1,"op":"startLiveUpdates","error":{"code":"…","message":"…"}}`.
package struct Reply: Hashable, Sendable {
    /// The request's id; `nil` when the request had none that could be read.
    package var id: MessageID?
    /// The request's operation; `nil` when it named none that is known.
    package var operation: OperationName?
    /// The `op` of a request that named no known operation, echoed in its `unknownOperation`
    /// error reply.
    package var unknownOperation: String?
    /// The result, or the error.
    package var outcome: Result<ReplyResult, ProtocolError>

    /// Creates a reply.
    package init(
        id: MessageID?, operation: OperationName?, unknownOperation: String? = nil, outcome: Result<ReplyResult, ProtocolError>
    ) {
        self.id = id
        self.operation = operation
        self.unknownOperation = unknownOperation
        self.outcome = outcome
    }

    /// Writes the reply's object: `id` (`null` when unknown), `op` when known, then `result`
    /// or `error`.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.key("id")
        if let id { id.write(to: &buffer) } else { buffer.null() }
        if let op = operation?.rawValue ?? unknownOperation { buffer.member("op", text: op) }
        switch outcome {
        case .success(let result):
            buffer.key("result")
            result.write(to: &buffer)
        case .failure(let error):
            buffer.key("error")
            error.write(to: &buffer)
        }
        buffer.endObject()
    }

    /// Decodes a reply's members. A reply whose `result` does not decode becomes a failure
    /// with the decoding error, so whoever waits for it is answered.
    init(_ fields: Fields) throws(ProtocolError) {
        let id = try fields.optional("id", "an integer or a string", MessageID.init(json:))
        let op = try fields.optionalString("op")
        let operation = op.flatMap(OperationName.init(rawValue:))
        self.id = id
        self.operation = operation
        unknownOperation = operation == nil ? op : nil
        if let error = try fields.optionalFields("error") {
            outcome = .failure(try ProtocolError(error))
            return
        }
        guard let operation else { throw fields.invalid("op", "missing in a reply with a result") }
        do throws(ProtocolError) {
            outcome = .success(try ReplyResult(operation, fields.fields("result")))
        } catch {
            outcome = .failure(error)
        }
    }
}

extension ProtocolError {
    /// Writes the `error` object.
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("code", text: code.rawValue)
        buffer.member("message", text: message)
        if let availableInVersion { buffer.member("availableInVersion", availableInVersion) }
        buffer.endObject()
    }

    /// Decodes an `error` object; a code this version does not know becomes `internalError`
    /// with the code in the message.
    init(_ fields: Fields) throws(ProtocolError) {
        let code = try fields.string("code")
        let message = try fields.string("message")
        let known = ErrorCode(rawValue: code)
        self.init(known ?? .internalError, known == nil ? "\(code): \(message)" : message,
                  availableInVersion: try fields.optionalInteger("availableInVersion"))
    }
}
