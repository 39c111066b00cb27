import Foundation
import Glibc
import Testing
import WaymarkStore
import WaymarkAuthorization

/// `kill -9` at random moments while `waymark-store-torture` commits: every change it printed
/// (printed only after the commit returned) must be in the database, and the file must pass
/// `PRAGMA integrity_check`. Figures in docs/store.md.
@Suite("crash safety", .timeLimit(.minutes(5)))
struct CrashSafetyTests {
    static let iterations = 300
    /// Kills land uniformly in this window after the start, so some hit the open and migration,
    /// most hit commits.
    static let killWindowMicroseconds: ClosedRange<UInt32> = 0...120_000

    /// `waymark-store-torture`, built next to the test bundle.
    static let torture: String = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("waymark-store-torture").path
    }()

    @Test func killNineLosesNoAcknowledgedChange() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        var acknowledged = Set<Int64>()
        var next: Int64 = 0
        var killedMidRun = 0
        for _ in 0..<Self.iterations {
            let (lines, exitedEarly) = try Self.runAndKill(directory.database, from: next)
            let printed = Set(lines.compactMap { Int64($0) })
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

    /// Starts the writer at change `first` (with `mode`, if any), kills it at a random moment
    /// and returns the whole lines it printed (its acknowledged changes), and whether it had
    /// exited before the kill. Spawned and reaped with
    /// posix_spawn and waitpid (Foundation's `Process` polls for the exit every 50 ms).
    static func runAndKill(_ database: String, from first: Int64, mode: [String] = []) throws -> ([Substring], Bool) {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let strings: [String] = [torture, database, String(first)] + mode
        let arguments = strings.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, torture, &actions, nil, arguments, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        try #require(spawned == 0, "posix_spawn \(torture): errno \(spawned)")

        usleep(UInt32.random(in: killWindowMicroseconds))
        var status: Int32 = 0
        let exitedEarly = waitpid(pid, &status, WNOHANG) == pid
        if !exitedEarly {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = read(pipeEnds[0], &buffer, buffer.count), count > 0 {
            output += buffer.prefix(count)
        }
        // Only whole lines count: a change is acknowledged once its line is out.
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return (Array(lines), exitedEarly)
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
