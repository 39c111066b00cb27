import Testing
import WaymarkAuthorization
import WaymarkMonitoring
import WaymarkStore

/// `kill -9` at random moments while `waymark-store-torture … monitors` adds conditions,
/// evaluates fixes, queues events and acknowledges them (docs/store.md, "Crash safety"): every
/// condition whose change was printed is stored, every printed event is either acknowledged
/// (or its acknowledgement asked for) or still queued, no event whose acknowledgement was
/// confirmed is queued again, none is dropped, and the file is sound.
@Suite("monitor crash safety", .timeLimit(.minutes(5)))
struct MonitorCrashSafetyTests {
    static let iterations = 300

    @Test func killNineLosesNoConditionAndNoEvent() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let app = AppIdentity(.unit, "torture.service")
        var added = Set<String>()
        var queued = Set<Int64>()
        var acknowledged: Int64 = 0
        var acknowledgementAsked: Int64 = 0
        var next: Int64 = 0
        var killedMidRun = 0
        for _ in 0..<Self.iterations {
            let (lines, exitedEarly) = try CrashSafetyTests.runAndKill(directory.database, from: next, mode: ["monitors"])
            #expect(!exitedEarly, "the writer stopped by itself before the kill")
            if !lines.isEmpty { killedMidRun += 1 }
            for line in lines {
                if line.hasPrefix("ack "), let through = Int64(line.dropFirst(4)) {
                    acknowledgementAsked = max(acknowledgementAsked, through)
                    continue
                }
                let change = try #require(Self.parse(line), "unreadable line \(line)")
                if change.number % 2 == 0 { added.insert("c\(change.number % 16)") }
                queued.formUnion(change.queued)
                if let through = change.acknowledged { acknowledged = max(acknowledged, through) }
                next = change.number + 1
            }

            let database = try StoreSchema.open(path: directory.database)
            #expect(try database.integrityProblems() == [])
            let store = MonitorStore(database: database)
            let identifiers = Set(try store.monitor(named: "torture", of: app)?.identifiers ?? [])
            #expect(added.isSubset(of: identifiers), "acknowledged conditions lost: \(added.subtracting(identifiers))")
            let pending = try store.pendingEvents(of: app)
            let stored = pending.events.map(\.sequence)
            #expect(pending.dropped == 0)
            #expect(stored == stored.sorted() && Set(stored).count == stored.count)
            #expect(stored.allSatisfy { $0 > acknowledged }, "an acknowledged event is queued again")
            // An acknowledgement asked for but not confirmed may or may not have been committed.
            let lost = queued.filter { $0 > acknowledgementAsked && !stored.contains($0) }
            #expect(lost.isEmpty, "printed events neither acknowledged nor queued: \(lost.sorted())")
        }
        print(
            "monitor crash safety: \(Self.iterations) kills, \(killedMidRun) after at least one commit, \(next) changes, "
                + "\(queued.count) events queued, none lost or repeated")
        #expect(killedMidRun > Self.iterations / 4, "too few kills landed after a commit to test anything")
        #expect(queued.count > Self.iterations, "too few events to test anything")
    }

    /// `n q:1,2 a:7` (or `a:-`).
    static func parse(_ line: Substring) -> (number: Int64, queued: [Int64], acknowledged: Int64?)? {
        let fields = line.split(separator: " ")
        guard fields.count == 3, let number = Int64(fields[0]), fields[1].hasPrefix("q:"), fields[2].hasPrefix("a:") else { return nil }
        let queued = fields[1].dropFirst(2).split(separator: ",").compactMap { Int64($0) }
        let acknowledged = fields[2].dropFirst(2)
        return (number, queued, acknowledged == "-" ? nil : Int64(acknowledged))
    }
}
