// waymark-store-torture DATABASE FIRST-CHANGE [monitors]: commits changes to the store in a
// loop, forever, and prints each change's number on stdout only after its transaction
// returned. WaymarkStoreTests kills it with SIGKILL at random moments and checks that every
// printed change survived. Change n records a pending request of app n when n is even and
// grants app n-1 (always, reduced) when n is odd; with `monitors`, see tortureMonitors.
import WaymarkStore
import WaymarkAuthorization
import WaymarkSystem

/// Writes `message` to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    try? FileDescriptor.standardError.writeAll(Array((message + "\n").utf8))
    CurrentProcess.exit(status)
}

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let first = Int64(arguments[2]), (0...1 << 40).contains(first),
    arguments.count == 3 || arguments[3] == "monitors"
else {
    fail("usage: waymark-store-torture DATABASE FIRST-CHANGE [monitors]", status: 2)
}
do {
    if arguments.count == 4 { try tortureMonitors(store: MonitorStore(database: try StoreSchema.open(path: arguments[1])), from: first) }
    let store = AuthorizationStore(database: try StoreSchema.open(path: arguments[1]))
    var change = first
    while true {
        let time = RealtimeInstant(nanosecondsSinceEpoch: change)
        if change % 2 == 0 {
            try store.recordPendingRequest(
                AppIdentity(.executable, "/opt/torture/app-\(change)"), usageDescription: "change \(change)", requested: .authorizedAlways, uid: 1000, at: time)
        } else {
            try store.grant(AppIdentity(.executable, "/opt/torture/app-\(change - 1)"), .authorizedAlways, accuracy: .reduced, at: time)
        }
        guard (try? FileDescriptor.standardOutput.writeAll(Array("\(change)\n".utf8))) != nil else {
            fail("stdout closed", status: 3)
        }
        change += 1
    }
} catch {
    fail("waymark-store-torture: \(error)", status: 1)
}
