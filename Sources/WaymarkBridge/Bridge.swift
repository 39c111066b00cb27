package import WaymarkBoard
package import WaymarkBridgeCore
import WaymarkClock
import WaymarkMosquitto
package import WaymarkStore
import WaymarkSystem

/// The bridge's loop on its owner's thread: stores what the ``inbox`` receives in the
/// ``Outbox``, connects to the broker as ``Delivery`` decides, publishes the oldest message and
/// deletes it when the broker acknowledges it. On each connection it publishes its status
/// (retained, with the outbox's drop count); its last will is OwnTracks' `lwt`. Region events
/// become `transition` messages in the outbox's transaction and are acknowledged to the daemon
/// once it committed; the regions go out as a retained `waypoints` message at start.
package final class Bridge {
    /// Where the task reading live updates puts their messages.
    package let inbox: BridgeInbox
    private let settings: MQTTSettings
    private let password: String?
    /// The device the messages are for.
    package let device: OwnTracksDevice
    /// The configured regions, with the time each was first watched.
    package let regions: [OwnTracksRegion]
    private let outbox: Outbox
    private var delivery: Delivery
    private var client: MosquittoClient?
    private var diagnostics: [String] = []
    /// The last retained message published on each topic (the last location, the waypoints):
    /// published again on each connection, as a broker that restarted without its
    /// persistence has forgotten them.
    private var retained: [String: OutgoingMessage] = [:]
    private var random = SystemRandomNumberGenerator()

    /// The longest the loop waits for the socket (or sleeps without one) before looking at the inbox.
    static let tick: Int32 = 50

    /// A bridge for `settings` (with the password read from its file) keeping its outbox at `outboxPath`.
    package init(settings: MQTTSettings, password: String?, outboxPath: String) throws(StoreError) {
        let policy = OutboxPolicy(limit: settings.outboxLimit)
        self.settings = settings
        self.password = password
        device = OwnTracksDevice(user: settings.user, device: settings.device, trackerID: settings.trackerID)
        outbox = try Outbox(path: outboxPath, policy: policy)
        inbox = BridgeInbox(policy: policy)
        delivery = Delivery(now: Self.now(), connectPatience: .seconds(settings.keepAlive))
        regions = try outbox.regions(settings.regions, now: Self.unixSeconds())
        if !regions.isEmpty {
            let waypoints = OutgoingMessage(topic: device.waypointsTopic, payload: OwnTracksPayload.waypoints(regions), retain: true)
            try outbox.append([waypoints], events: [], droppedBefore: 0, inFlight: nil) { _, _ in nil }
        }
    }

    /// Runs until `shouldStop` says so, then publishes that it is offline and disconnects.
    /// Throws only when the outbox fails (a disk error): the service manager restarts the bridge.
    package func run(until shouldStop: () -> Bool) throws(StoreError) {
        while !shouldStop() {
            let received = inbox.take()
            if received.diagnostics != diagnostics {
                // The daemon went away, refused, or came back: said once, not each update.
                log(received.diagnostics.isEmpty ? "locations again" : "no location: " + received.diagnostics.joined(separator: ", "))
            }
            diagnostics = received.diagnostics
            let repeated = try outbox.append(
                received.messages, events: received.events.map(\.event), droppedBefore: received.dropped,
                inFlight: delivery.inFlightSequence, transition: transitionMessage)
            if repeated > 0 { log("\(repeated) monitor event(s) sent again after a restart: taken already, not published again") }
            for pending in received.events {
                if let sequence = pending.event.sequence { pending.acknowledge(sequence) }
            }
            let now = Self.now()
            if delivery.connectTimedOut(now: now, using: &random) {
                log("no answer from \(settings.host):\(settings.port) within \(settings.keepAlive) s")
                client = nil
            }
            if delivery.shouldConnect(now: now) { connect() }
            try publishOldest()
            if let client {
                let (events, failure) = client.loop(timeoutMilliseconds: Self.tick)
                for event in events { try handle(event) }
                if let failure, self.client != nil { lose("\(failure)") }
            } else {
                CurrentProcess.sleep(for: .milliseconds(Self.tick))
            }
        }
        if client != nil, case .connected = delivery.link {
            _ = try? client?.publish(topic: device.statusTopic, payload: try statusPayload(online: false), retain: true)
            client?.disconnect()
        }
    }

    private func connect() {
        do throws(MosquittoError) {
            let will = MosquittoClient.Will(
                topic: device.topic, payload: OwnTracksPayload.lastWill(connectedAt: Self.unixSeconds()), retain: false)
            let tls = settings.caFile.map {
                MosquittoClient.TLS(caFile: $0, certificateFile: settings.certificateFile, keyFile: settings.keyFile)
            }
            let client = try MosquittoClient(
                clientID: settings.clientID, username: settings.username, password: password, tls: tls, will: will)
            try client.connect(host: settings.host, port: settings.port, keepAlive: settings.keepAlive)
            self.client = client
        } catch {
            lose("\(error)")
        }
    }

    private func handle(_ event: MosquittoClient.Event) throws(StoreError) {
        switch event {
        case .connected(returnCode: 0):
            delivery.connected()
            log("connected to \(settings.host):\(settings.port)")
            _ = try? client?.publish(topic: device.statusTopic, payload: try statusPayload(online: true), retain: true)
            for message in retained.values.sorted(by: { $0.topic < $1.topic }) {
                _ = try? client?.publish(topic: message.topic, payload: message.payload, retain: true)
            }
        case .connected(let code):
            lose("the broker refused the connection (CONNACK \(code))")
        case .disconnected(let reason):
            lose("disconnected: \(MosquittoError.text(of: reason))")
        case .acknowledged(let messageID):
            if let sequence = delivery.acknowledged(messageID: messageID) { try outbox.delete(sequence) }
        }
    }

    private func publishOldest() throws(StoreError) {
        guard let client, delivery.isReadyToPublish, let entry = try outbox.oldest() else { return }
        do throws(MosquittoError) {
            let messageID = try client.publish(topic: entry.message.topic, payload: entry.message.payload, retain: entry.message.retain)
            delivery.published(sequence: entry.sequence, messageID: messageID)
            if entry.message.retain { retained[entry.message.topic] = entry.message }
        } catch {
            lose("\(error)")
        }
    }

    /// The `transition` message of `event` on the event topic (QoS 1, not retained).
    private func transitionMessage(_ event: RegionEvent, _ transition: OwnTracksPayload.Transition) -> OutgoingMessage? {
        guard let region = regions.first(where: { $0.name == event.region }) else { return nil }
        let payload = OwnTracksPayload.transition(transition, region: region, fix: event.fix, date: event.date, device: device)
        return OutgoingMessage(topic: device.eventTopic, payload: payload, retain: false)
    }

    private func lose(_ reason: String) {
        if case .waiting = delivery.link { return }
        log("\(settings.host):\(settings.port): \(reason)")
        client = nil
        delivery.lost(now: Self.now(), using: &random)
    }

    private func statusPayload(online: Bool) throws(StoreError) -> String {
        let status = BridgeStatus(isOnline: online, queued: try outbox.count(), dropped: try outbox.dropped(), diagnostics: diagnostics)
        return OwnTracksPayload.status(status, now: Self.unixSeconds())
    }

    private func log(_ message: String) {
        Self.log(message)
    }

    /// Writes a line to the bridge's log, which never waits for its reader (a stalled journal
    /// must not stop the publishing).
    package static func log(_ message: String) {
        standardError.write(message)
    }

    private static let standardError = StandardErrorLog(prefix: "waymark-mqtt: ")

    private static func now() -> Instant {
        Instant(nanoseconds: MonotonicInstant.now.nanoseconds)
    }

    /// The Unix time in seconds.
    package static func unixSeconds() -> Int64 {
        RealtimeInstant.now.nanosecondsSinceEpoch / 1_000_000_000
    }
}
