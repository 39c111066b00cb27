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

    /// The reply as JSON.
    package var json: JSONValue {
        var object: JSONObject = ["id": id?.json ?? .null]
        if let op = operation?.rawValue ?? unknownOperation { object["op"] = .string(op) }
        switch outcome {
        case .success(let result): object["result"] = .object(result.json)
        case .failure(let error): object["error"] = .object(error.json)
        }
        return .object(object)
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
    /// The `error` object.
    var json: JSONObject {
        var object: JSONObject = ["code": .string(code.rawValue), "message": .string(message)]
        if let availableInVersion { object["availableInVersion"] = .integer(Int64(availableInVersion)) }
        return object
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
