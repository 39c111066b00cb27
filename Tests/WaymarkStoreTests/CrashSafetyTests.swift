import Foundation
import Testing
import WaymarkStore

/// `kill -9` at random moments while `waymark-store-torture` commits: every change it printed
/// (printed only after the commit returned) must be in the database, and the file must pass
/// `PRAGMA integrity_check`. Figures in docs/store.md.
@Suite("crash safety", .timeLimit(.minutes(3)))
struct CrashSafetyTests {
    static let iterations = 300
    /// Kills land uniformly in this window after the start, so some hit the open and migration,
    /// most hit commits.
    static let killWindowMicroseconds: ClosedRange<UInt32> = 0...120_000

    static let torture: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("waymark-store-torture")
    }()

    @Test func killNineLosesNoAcknowledgedChange() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        var acknowledged = Set<Int64>()
        var next: Int64 = 0
        var killedMidRun = 0
        for _ in 0..<Self.iterations {
            let (printed, exitedEarly) = try Self.runAndKill(directory.database, from: next)
            #expect(!exitedEarly, "the writer stopped by itself before the kill")
            if !printed.isEmpty { killedMidRun += 1 }
            acknowledged.formUnion(printed)
            next = (acknowledged.max() ?? -1) + 1

            let database = try StoreSchema.open(path: directory.database)
            #expect(try database.integrityProblems() == [])
            try Self.check(acknowledged, in: AuthorizationStore(database: database))
        }
        print("crash safety: \(Self.iterations) kills, \(killedMidRun) after at least one commit, \(acknowledged.count) acknowledged changes, none lost")
        #expect(killedMidRun > Self.iterations / 4, "too few kills landed after a commit to test anything")
    }

    /// Starts the writer at change `first`, kills it at a random moment and returns the changes
    /// it acknowledged, and whether it had exited before the kill.
    static func runAndKill(_ database: String, from first: Int64) throws -> (Set<Int64>, Bool) {
        let process = Process()
        process.executableURL = torture
        process.arguments = [database, String(first)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        usleep(UInt32.random(in: killWindowMicroseconds))
        let exitedEarly = !process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Only whole lines count: a change is acknowledged once its line is out.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return (Set(lines.compactMap { Int64($0) }), exitedEarly && process.terminationReason == .exit)
    }

    /// Change n (even) recorded a pending request of app n; change n+1 granted it.
    static func check(_ acknowledged: Set<Int64>, in store: AuthorizationStore) throws {
        let apps = Dictionary(uniqueKeysWithValues: try store.apps().map { ($0.identity.key, $0) })
        let pending = Set(try store.pendingRequests().map(\.identity.key))
        for change in acknowledged where change % 2 == 0 {
            let key = "/opt/torture/app-\(change)"
            let app = try #require(apps[key], "acknowledged change \(change) is lost")
            let granted = app.authorization == .authorizedAlways && app.accuracy == .reduced && !pending.contains(key)
            if acknowledged.contains(change + 1) {
                #expect(granted, "acknowledged change \(change + 1) (grant) is lost")
            } else {
                #expect(granted || (app.authorization == .notDetermined && pending.contains(key)))
            }
        }
        for change in acknowledged where change % 2 == 1 {
            #expect(apps["/opt/torture/app-\(change - 1)"]?.authorization == .authorizedAlways, "acknowledged change \(change) is lost")
        }
    }
}
