package import WaymarkJSON
package import WaymarkLocation

extension StatusReport {
    /// Writes the protocol's `status` object: times in seconds rounded to the millisecond,
    /// energy to the microwatt-hour.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("daemonVersion", text: daemonVersion)
        buffer.member("uptime", number: uptime, roundedTo: 3)
        buffer.key("source")
        buffer.beginObject()
        buffer.member("kind", text: source.kind)
        buffer.member("description", text: source.description)
        buffer.member("isSimulated", source.isSimulated)
        buffer.endObject()
        buffer.key("receiverPower")
        buffer.beginObject()
        buffer.member("state", text: receiverPowerState)
        buffer.member("since", number: receiverPowerSince, roundedTo: 3)
        buffer.endObject()
        buffer.key("lastLocation")
        if let lastLocation { lastLocation.write(to: &buffer) } else { buffer.null() }
        buffer.member("isStationary", isStationary)
        buffer.member("clients", clients)
        buffer.member("liveSubscriptions", liveSubscriptions)
        buffer.member("pendingRequests", pendingRequests)
        buffer.member("diagnostics", strings: diagnostics.names)
        buffer.key("powerLedger")
        buffer.beginArray()
        for entry in powerLedger {
            buffer.beginObject()
            buffer.member("state", text: entry.state)
            buffer.member("seconds", number: entry.seconds, roundedTo: 3)
            buffer.member("milliwattHours", number: entry.milliwattHours, roundedTo: 4)
            buffer.endObject()
        }
        buffer.endArray()
        buffer.member("transitions", transitions)
        buffer.member("motionDetection", text: motionDetection)
        buffer.key("eventLoop")
        if let eventLoop {
            buffer.beginObject()
            buffer.member("timers", eventLoop.timers)
            buffer.member("descriptors", eventLoop.descriptors)
            buffer.endObject()
        } else {
            buffer.null()
        }
        buffer.key("connectedApps")
        buffer.beginArray()
        for client in connectedApps {
            buffer.beginObject()
            buffer.member("pid", client.pid)
            buffer.member("uid", client.uid)
            buffer.member("app", text: client.app)
            buffer.endObject()
        }
        buffer.endArray()
        buffer.key("sessions")
        buffer.beginObject()
        sessions.writeMembers(to: &buffer)
        buffer.key("apps")
        buffer.beginArray()
        for entry in appSessions {
            buffer.beginObject()
            buffer.member("app", text: entry.app)
            entry.counts.writeMembers(to: &buffer)
            buffer.endObject()
        }
        buffer.endArray()
        buffer.endObject()
        buffer.key("recentTransitions")
        buffer.beginArray()
        for transition in recentTransitions {
            buffer.beginObject()
            buffer.member("time", number: transition.time, roundedTo: 3)
            buffer.member("from", text: transition.from)
            buffer.member("to", text: transition.to)
            buffer.member("reason", text: transition.reason)
            buffer.endObject()
        }
        buffer.endArray()
        buffer.endObject()
    }

    /// Decodes a `status` object.
    init(_ fields: Fields) throws(ProtocolError) {
        let source = try fields.fields("source")
        let power = try fields.fields("receiverPower")
        let entries = try fields.require("powerLedger", "an array") { $0.arrayValue }
        var ledger: [PowerLedgerEntry] = []
        for (index, entry) in entries.enumerated() {
            let entry = try Fields(entry, at: "\(fields.path).powerLedger[\(index)]")
            ledger.append(PowerLedgerEntry(
                state: try entry.string("state"), seconds: try entry.double("seconds", roundedTo: 3), milliwattHours: try entry.double("milliwattHours", roundedTo: 4)))
        }
        var recent: [PowerTransition] = []
        if let transitions = try fields.optional("recentTransitions", "an array", { $0.arrayValue }) {
            for (index, transition) in transitions.enumerated() {
                let transition = try Fields(transition, at: "\(fields.path).recentTransitions[\(index)]")
                recent.append(PowerTransition(
                    time: try transition.double("time", roundedTo: 3), from: try transition.string("from"), to: try transition.string("to"),
                    reason: try transition.string("reason")))
            }
        }
        var connectedApps: [ConnectedApp] = []
        if let clients = try fields.optional("connectedApps", "an array", { $0.arrayValue }) {
            for (index, client) in clients.enumerated() {
                let client = try Fields(client, at: "\(fields.path).connectedApps[\(index)]")
                connectedApps.append(ConnectedApp(pid: try client.integer("pid"), uid: try client.integer("uid"), app: try client.string("app")))
            }
        }
        // Daemons before the session counts send none.
        let sessions = try fields.optionalFields("sessions")
        var appSessions: [AppSessions] = []
        if let apps = try sessions?.optional("apps", "an array", { $0.arrayValue }) {
            for (index, entry) in apps.enumerated() {
                let entry = try Fields(entry, at: "\(fields.path).sessions.apps[\(index)]")
                appSessions.append(AppSessions(app: try entry.string("app"), counts: try SessionCounts(entry)))
            }
        }
        let eventLoop = try fields.optionalFields("eventLoop").map { (counts) throws(ProtocolError) in
            EventLoopCounts(timers: try counts.integer("timers"), descriptors: try counts.integer("descriptors"))
        }
        self.init(
            daemonVersion: try fields.string("daemonVersion"), uptime: try fields.double("uptime", roundedTo: 3),
            source: Source(kind: try source.string("kind"), description: try source.string("description"), isSimulated: try source.bool("isSimulated")),
            receiverPowerState: try power.string("state"), receiverPowerSince: try power.double("since", roundedTo: 3),
            lastLocation: try fields.optionalFields("lastLocation").map { (fields) throws(ProtocolError) in try Location(fields) },
            isStationary: try fields.bool("isStationary"), clients: try fields.integer("clients"),
            liveSubscriptions: try fields.integer("liveSubscriptions"), pendingRequests: try fields.integer("pendingRequests"),
            diagnostics: Diagnostics(names: try fields.strings("diagnostics")), powerLedger: ledger,
            transitions: try fields.integer("transitions"), recentTransitions: recent,
            motionDetection: try fields.optionalString("motionDetection") ?? "accelerometer", eventLoop: eventLoop)
        self.connectedApps = connectedApps
        self.sessions = try sessions.map { (fields) throws(ProtocolError) in try SessionCounts(fields) } ?? SessionCounts()
        self.appSessions = appSessions
    }
}

extension StatusReport.SessionCounts {
    /// Writes the counts as members of the object being written.
    fileprivate func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("serviceSessions", serviceSessions)
        buffer.member("backgroundActivitySessions", backgroundActivitySessions)
        buffer.member("keptSubscriptions", keptSubscriptions)
        buffer.member("keptRequests", keptRequests)
        buffer.member("keptBackgroundActivitySessions", keptBackgroundActivitySessions)
    }

    /// Decodes the counts from the members of `fields`.
    fileprivate init(_ fields: Fields) throws(ProtocolError) {
        self.init(
            serviceSessions: try fields.integer("serviceSessions"),
            backgroundActivitySessions: try fields.integer("backgroundActivitySessions"),
            keptSubscriptions: try fields.integer("keptSubscriptions"), keptRequests: try fields.integer("keptRequests"),
            keptBackgroundActivitySessions: try fields.integer("keptBackgroundActivitySessions"))
    }
}
