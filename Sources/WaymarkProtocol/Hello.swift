import WaymarkJSON

/// The client's `hello`: the newest protocol version it speaks, and who it is.
package struct Hello: Hashable, Sendable {
    /// The newest protocol version the client speaks.
    package var version: Int
    /// The app's identifier (such as `org.example.tracker`), by which the daemon keeps its
    /// authorization; `nil` for an anonymous client.
    package var appID: String?
    /// Why the app needs location (Core Location's `NSLocationWhenInUseUsageDescription`),
    /// shown to the operator with its authorization request.
    package var usageDescription: String?

    /// Creates a hello.
    package init(version: Int = ProtocolVersion.current, appID: String? = nil, usageDescription: String? = nil) {
        self.version = version
        self.appID = appID
        self.usageDescription = usageDescription
    }
}

/// The daemon's answer to `hello`.
package struct HelloResult: Hashable, Sendable {
    /// The daemon's version, such as `0.1.0`.
    package var daemonVersion: String
    /// The protocol version the conversation uses: the older of the two peers' newest.
    package var protocolVersion: Int
    /// The daemon's process ID.
    package var pid: Int

    /// Creates an answer.
    package init(daemonVersion: String, protocolVersion: Int, pid: Int) {
        self.daemonVersion = daemonVersion
        self.protocolVersion = protocolVersion
        self.pid = pid
    }

    /// Writes the members of the `result` object.
    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("daemonVersion", text: daemonVersion)
        buffer.member("protocolVersion", protocolVersion)
        buffer.member("pid", pid)
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(
            daemonVersion: try fields.string("daemonVersion"), protocolVersion: try fields.integer("protocolVersion"),
            pid: try fields.integer("pid"))
    }
}
