import CMosquitto

/// A libmosquitto call that failed: which call, its `MOSQ_ERR_*` code and libmosquitto's text.
package struct MosquittoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The function that failed, such as `mosquitto_tls_set`.
    package var call: String
    /// Its `MOSQ_ERR_*` code.
    package var code: Int32

    package init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }

    /// `call: text (MOSQ_ERR n)`.
    package var description: String {
        "\(call): \(Self.text(of: code))"
    }

    /// libmosquitto's text for `code`, then the code: `the connection was lost (MOSQ_ERR 7)`.
    package static func text(of code: Int32) -> String {
        "\(String(cString: mosquitto_strerror(code))) (MOSQ_ERR \(code))"
    }

    /// Throws for a code other than success.
    static func check(_ code: Int32, _ call: String) throws(MosquittoError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MosquittoError(call, code) }
    }
}
