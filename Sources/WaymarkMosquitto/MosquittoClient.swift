import CMosquitto

/// One MQTT connection through libmosquitto, driven by its owner's thread with ``loop(timeoutMilliseconds:)``
/// (libmosquitto's own thread is not used). Callbacks become ``Event``s that the loop returns.
/// Made anew for each connection attempt, so that libmosquitto never resends on its own:
/// what was not acknowledged is its owner's to send again. Not `Sendable`: one thread owns it.
package final class MosquittoClient {
    /// What happened during a loop.
    package enum Event: Hashable, Sendable {
        /// CONNACK came; 0 is accepted, otherwise the broker's refusal code.
        case connected(returnCode: Int32)
        /// The connection ended (0: asked for by ``disconnect()``).
        case disconnected(reason: Int32)
        /// The broker acknowledged (PUBACK) the QoS 1 message with this id.
        case acknowledged(messageID: Int32)
    }

    /// TLS settings: the CA to trust the broker by and an optional client certificate and key.
    package struct TLS: Hashable, Sendable {
        package var caFile: String
        package var certificateFile: String?
        package var keyFile: String?

        package init(caFile: String, certificateFile: String?, keyFile: String?) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// The message the broker publishes if the connection is lost without a DISCONNECT.
    package struct Will: Hashable, Sendable {
        package var topic: String
        package var payload: String
        package var retain: Bool

        package init(topic: String, payload: String, retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    private let handle: OpaquePointer
    private let sink = EventSink()

    /// libmosquitto's one-time set-up, done before the first client.
    private static let library: Int32 = mosquitto_lib_init()

    /// A client (clean session, MQTT 3.1.1) with its credentials, TLS and will set, not connected yet.
    package init(clientID: String, username: String?, password: String?, tls: TLS?, will: Will) throws(MosquittoError) {
        try MosquittoError.check(Self.library, "mosquitto_lib_init")
        guard let handle = mosquitto_new(clientID, true, Unmanaged.passUnretained(sink).toOpaque()) else {
            throw MosquittoError("mosquitto_new", MOSQ_ERR_NOMEM.rawValue)
        }
        self.handle = handle
        mosquitto_connect_callback_set(handle) { _, context, code in
            EventSink.from(context).events.append(.connected(returnCode: code))
        }
        mosquitto_disconnect_callback_set(handle) { _, context, reason in
            EventSink.from(context).events.append(.disconnected(reason: reason))
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            EventSink.from(context).events.append(.acknowledged(messageID: messageID))
        }
        if let username {
            try MosquittoError.check(mosquitto_username_pw_set(handle, username, password), "mosquitto_username_pw_set")
        }
        if let tls {
            try MosquittoError.check(
                mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil), "mosquitto_tls_set")
        }
        let payload = Array(will.payload.utf8)
        try MosquittoError.check(
            mosquitto_will_set(handle, will.topic, Int32(payload.count), payload, 1, will.retain), "mosquitto_will_set")
    }

    deinit {
        mosquitto_destroy(handle)
    }

    /// Starts connecting without blocking on the TCP handshake (``Event/connected(returnCode:)`` says when it is done).
    package func connect(host: String, port: Int, keepAlive: Int) throws(MosquittoError) {
        let code = mosquitto_connect_async(handle, host, Int32(clamping: port), Int32(clamping: keepAlive))
        if code == MOSQ_ERR_CONN_PENDING.rawValue { return }
        try MosquittoError.check(code, "mosquitto_connect_async")
    }

    /// Queues `payload` for `topic` at QoS 1 and returns its message id.
    package func publish(topic: String, payload: String, retain: Bool) throws(MosquittoError) -> Int32 {
        var messageID: Int32 = 0
        let bytes = Array(payload.utf8)
        try MosquittoError.check(
            mosquitto_publish(handle, &messageID, topic, Int32(clamping: bytes.count), bytes, 1, retain), "mosquitto_publish")
        return messageID
    }

    /// Reads and writes what is due, waiting at most `timeoutMilliseconds` for the socket, and
    /// returns what happened; an error means the connection is gone.
    package func loop(timeoutMilliseconds: Int32) -> (events: [Event], failure: MosquittoError?) {
        let code = mosquitto_loop(handle, timeoutMilliseconds, 1)
        defer { sink.events.removeAll() }
        let failure = code == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoError("mosquitto_loop", code)
        return (sink.events, failure)
    }

    /// Sends DISCONNECT (the broker then drops the will) once what is queued is written.
    package func disconnect() {
        mosquitto_disconnect(handle)
        _ = mosquitto_loop(handle, 100, 1)
    }
}

/// Collects libmosquitto's callbacks, which it calls on the owner's thread inside `mosquitto_loop`.
private final class EventSink {
    var events: [MosquittoClient.Event] = []

    static func from(_ context: UnsafeMutableRawPointer?) -> EventSink {
        Unmanaged<EventSink>.fromOpaque(context!).takeUnretainedValue()
    }
}
