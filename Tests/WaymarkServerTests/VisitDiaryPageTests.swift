import Foundation
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkMonitoring
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkStore
import WaymarkTestFixtures

/// The visit diary keeps 1,000 visits, four times what a line holds: `visits` answers a page
/// at a time (docs/protocol.md), and a client that follows `more` gets every visit once.
@Suite("Server: the visit diary in pages", .ownThread, .timeLimit(.minutes(1)))
struct VisitDiaryPageTests {
    @Test func aFullDiaryComesInPagesThatEachFitALine() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let path = directory.socket("store.sqlite")
        // A year of visits, each with numbers of every digit the writer prints.
        let hour: Int64 = 3_600_000_000_000
        let diary = (0..<Int64(MonitorStore.maximumVisits)).map { index in
            Visit(
                latitude: -33.856_784_412_345 + Double(index) * 1e-7, longitude: -151.215_296_712_345, horizontalAccuracy: 1234.567_891_234,
                arrivalDate: Timestamp(nanosecondsSinceEpoch: 1_700_000_000_123_000_000 + index * 8 * hour),
                departureDate: Timestamp(nanosecondsSinceEpoch: 1_700_000_000_456_000_000 + index * 8 * hour + 2 * hour))
        }
        // Written without a sync each: 1,000 of them would load the other tests' disk.
        let database = try StoreSchema.open(path: path)
        _ = try database.run("PRAGMA synchronous = OFF")
        let store = MonitorStore(database: database)
        for visit in diary { try store.record(visit) }
        let parts = try StoredParts(path: path)
        try await withDaemon(monitors: parts.monitors) { daemon in
            let app = try RawClient(path: daemon.path)
            try app.hello()
            var received: [Visit] = []
            var after: Timestamp?
            var pages = 0
            while true {
                guard case .success(.visits(let page)) = try app.request(.visits(after: after)).outcome else {
                    Issue.record("no page of the diary")
                    return
                }
                pages += 1
                #expect(ServerMessage.reply(Reply(id: .number(Int64.max), operation: .visits, outcome: .success(.visits(page)))).line.count
                    <= ProtocolLimits.maximumLineLength)
                received += page.visits
                guard page.more, let last = page.visits.last else { break }
                after = last.arrivalDate
            }
            #expect(pages >= 4)
            #expect(received.map(\.arrivalDate) == diary.map(\.arrivalDate))
            #expect(received.map(\.departureDate) == diary.map(\.departureDate))
        }
    }

    @Test func aPageFollowsTheArrivalItIsAskedAfter() {
        let visits = (0..<3).map { Visit(latitude: 1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Timestamp(nanosecondsSinceEpoch: $0 * 10), departureDate: nil) }
        #expect(VisitDiaryPage(page: visits, after: nil) == VisitDiaryPage(visits: visits))
        #expect(VisitDiaryPage(page: visits, after: Timestamp(nanosecondsSinceEpoch: 10)) == VisitDiaryPage(visits: [visits[2]]))
        #expect(VisitDiaryPage(page: visits, after: Timestamp(nanosecondsSinceEpoch: 15)) == VisitDiaryPage(visits: [visits[2]]))
        #expect(VisitDiaryPage(page: visits, after: Timestamp(nanosecondsSinceEpoch: 20)) == VisitDiaryPage(visits: []))
    }
}
