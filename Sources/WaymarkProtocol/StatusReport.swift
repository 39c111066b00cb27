package import WaymarkJSON
package import WaymarkLocation

extension StatusReport {
    /// The report as the protocol's `status` object.
    package var json: JSONValue {
        [
            "daemonVersion": .string(daemonVersion), "uptime": .number(uptime, decimals: 3),
            "source": ["kind": .string(source.kind), "description": .string(source.description), "isSimulated": .bool(source.isSimulated)],
            "receiverPower": ["state": .string(receiverPowerState), "since": .number(receiverPowerSince, decimals: 3)],
            "lastLocation": lastLocation?.json ?? .null, "isStationary": .bool(isStationary),
            "clients": .integer(Int64(clients)), "liveSubscriptions": .integer(Int64(liveSubscriptions)),
            "pendingRequests": .integer(Int64(pendingRequests)), "diagnostics": diagnostics.json,
            "powerLedger": .array(powerLedger.map { entry in
                ["state": .string(entry.state), "seconds": .number(entry.seconds, decimals: 3), "milliwattHours": .number(entry.milliwattHours, decimals: 4)]
            }),
            "transitions": .integer(Int64(transitions)),
            "motionDetection": .string(motionDetection),
            "eventLoop": eventLoop.map { counts in
                ["timers": .integer(Int64(counts.timers)), "descriptors": .integer(Int64(counts.descriptors))]
            } ?? .null,
            "connectedApps": .array(connectedApps.map { client in
                ["pid": .integer(Int64(client.pid)), "uid": .integer(Int64(client.uid)), "app": .string(client.app)]
            }),
            "recentTransitions": .array(recentTransitions.map { transition in
                ["time": .number(transition.time, decimals: 3), "from": .string(transition.from), "to": .string(transition.to),
                 "reason": .string(transition.reason)]
            }),
        ]
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
                state: try entry.string("state"), seconds: try entry.double("seconds"), milliwattHours: try entry.double("milliwattHours")))
        }
        var recent: [PowerTransition] = []
        if let transitions = try fields.optional("recentTransitions", "an array", { $0.arrayValue }) {
            for (index, transition) in transitions.enumerated() {
                let transition = try Fields(transition, at: "\(fields.path).recentTransitions[\(index)]")
                recent.append(PowerTransition(
                    time: try transition.double("time"), from: try transition.string("from"), to: try transition.string("to"),
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
        let eventLoop = try fields.optionalFields("eventLoop").map { (counts) throws(ProtocolError) in
            EventLoopCounts(timers: try counts.integer("timers"), descriptors: try counts.integer("descriptors"))
        }
        self.init(
            daemonVersion: try fields.string("daemonVersion"), uptime: try fields.double("uptime"),
            source: Source(kind: try source.string("kind"), description: try source.string("description"), isSimulated: try source.bool("isSimulated")),
            receiverPowerState: try power.string("state"), receiverPowerSince: try power.double("since"),
            lastLocation: try fields.optionalFields("lastLocation").map { (fields) throws(ProtocolError) in try Location(fields) },
            isStationary: try fields.bool("isStationary"), clients: try fields.integer("clients"),
            liveSubscriptions: try fields.integer("liveSubscriptions"), pendingRequests: try fields.integer("pendingRequests"),
            diagnostics: Diagnostics(names: try fields.strings("diagnostics")), powerLedger: ledger,
            transitions: try fields.integer("transitions"), recentTransitions: recent,
            motionDetection: try fields.optionalString("motionDetection") ?? "accelerometer", eventLoop: eventLoop)
        self.connectedApps = connectedApps
    }
}
