import WaymarkAuthorization
import WaymarkLocation
import WaymarkMonitoring
import WaymarkStore
import WaymarkSystem

/// The `monitors` mode: change n adds (n even) the circle `c<n mod 16>` of 100 m around
/// (0°, 0°) to the monitor `torture` of one app, then evaluates a fix at the centre (n even)
/// or 1 km east (n odd), which flips every condition and queues its events. Each
/// change first acknowledges the events queued two changes before, printing `ack <sequence>`
/// before it asks (as a client sends its acknowledgement), and after each change's
/// transactions returned it prints `n q:<sequences queued> a:<sequence acknowledged or ->`.
/// The monitor is rebuilt from the store at start, as the daemon does after a restart, and the
/// events left queued are acknowledged like the others.
func tortureMonitors(store: MonitorStore, from first: Int64) throws -> Never {
    let app = AppIdentity(.unit, "torture.service")
    var monitor = try store.monitor(named: "torture", of: app) ?? Monitor(name: "torture")!
    var change = first
    // The events still queued from the last run are delivered first, as on a reconnection.
    var recent: [[Int64]] = [try store.pendingEvents(of: app).events.map(\.sequence)]
    while true {
        let date = Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000 + change * 1_000_000_000)
        var acknowledged: Int64?
        if recent.count >= 2, let through = recent.removeFirst().max() {
            print(line: "ack \(through)\n")
            try store.acknowledgeEvents(through: through, of: app, monitor: "torture")
            acknowledged = through
        }
        var events: [MonitorEvent] = []
        if change % 2 == 0 {
            let region = CircularRegion(latitude: 0, longitude: 0, radius: 100)!
            if let event = try? monitor.add(.circularGeographic(region), identifier: "c\(change % 16)", at: date) { events.append(event) }
        }
        let east = change % 2 == 0 ? 0.0 : 0.009  // 0.009° of longitude at the equator ≈ 1 km
        events += monitor.evaluate(Location(latitude: 0, longitude: east, horizontalAccuracy: 5, timestamp: date), accuracyLimited: false)
        let queued = try store.save(monitor, of: app, queueing: events, at: RealtimeInstant(nanosecondsSinceEpoch: date.nanosecondsSinceEpoch))
        recent.append(queued.map(\.sequence))
        print(line: "\(change) q:\(queued.map { String($0.sequence) }.joined(separator: ",")) a:\(acknowledged.map(String.init) ?? "-")\n")
        change += 1
    }
}

/// Writes `line` to stdout in one call, or exits when stdout is gone.
private func print(line: String) {
    guard (try? FileDescriptor.standardOutput.writeAll(Array(line.utf8))) != nil else {
        fail("stdout closed", status: 3)
    }
}
