import WaymarkJSON

/// The daemon's answer to one request: `{"id":1,"op":"startLiveUpdates","result":{…}}` or
/// `{"id":1,"op":"startLiveUpdates","error":{"code":"…","message":"…"}}`.
public struct Reply: Hashable, Sendable {
    /// The request's id; `nil` when the request had none that could be read.
    public var id: MessageID?
    /// The request's operation; `nil` when it named none that is known.
    public var operation: OperationName?
    /// The result, or the error.
    public var outcome: Result<ReplyResult, ProtocolError>

    /// Creates a reply.
    public init(id: MessageID?, operation: OperationName?, outcome: Result<ReplyResult, ProtocolError>) {
        self.id = id
        self.operation = operation
        self.outcome = outcome
    }

    /// The reply as JSON.
    public var json: JSONValue {
        var object: JSONObject = ["id": id?.json ?? .null]
        if let operation { object["op"] = .string(operation.rawValue) }
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
        let operation = try fields.optionalNamed("op", as: OperationName.self)
        self.id = id
        self.operation = operation
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
