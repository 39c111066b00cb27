import Testing
import WaymarkAuthorization
import WaymarkProtocol

/// Found by the hostile pass of 2026-11-27: what users who are not the operator may make the
/// daemon list to the operator must reach the operator. `authorizationApps` answered in one
/// line, and 64 waiting requests with the longest usage descriptions made it 75,854 bytes,
/// over the protocol's line limit (the line is discarded whole): now it answers in pages.
struct AuthorizationAppsLineTests {
    /// Every request that may wait (8 uids with 8 apps each), each with the longest usage
    /// description a client may send, in the order the daemon lists apps.
    static let waiting = (0..<AuthorizationLimits.maximumPendingRequests).map { index in
        entry(key: "/home/user\(index / 8)/bin/app\(index % 8)", description: String(repeating: "x", count: AuthorizationLimits.maximumUsageDescriptionBytes))
    }.sorted { $0.app < $1.app }

    static func entry(key: String, description: String) -> AuthorizationAppEntry {
        AuthorizationAppEntry(
            app: AppReference(kind: "executable", key: key), authorization: nil, fullAccuracy: nil,
            request: WaitingRequest(authorization: .always, usageDescription: description, uid: 1_000),
            temporaryFullAccuracy: .none, purposeKey: nil)
    }

    static func line(_ answer: AuthorizationApps) -> [UInt8] {
        ServerMessage.reply(Reply(id: .number(1), operation: .authorizationApps, outcome: .success(.apps(answer)))).line
    }

    @Test func theRequestsOtherUsersMayLeaveReachTheOperatorPageByPage() {
        var pages: [AuthorizationApps] = []
        var after: AppReference?
        repeat {
            let page = AuthorizationApps(locationServicesEnabled: true, page: Self.waiting, after: after)
            pages.append(page)
            after = page.more ? page.apps.last?.app : nil
        } while after != nil && pages.count <= Self.waiting.count
        #expect(pages.count > 1)
        #expect(pages.allSatisfy { Self.line($0).count <= ProtocolLimits.maximumLineLength })
        #expect(pages.dropLast().allSatisfy(\.more) && pages.last?.more == false)
        // What the CLI reads back.
        #expect(pages.allSatisfy { page in (try? ServerMessage(line: Self.line(page).dropLast())) == ServerMessage.reply(Reply(
            id: .number(1), operation: .authorizationApps, outcome: .success(.apps(page)))) })
        #expect(pages.flatMap(\.apps) == Self.waiting)
    }

    @Test func theLargestEntryFitsALineAlone() {
        // A path of PATH_MAX bytes and a description of control characters: both escaped
        // six times over.
        let largest = Self.entry(
            key: String(repeating: "\u{1}", count: 4_096), description: String(repeating: "\u{1}", count: AuthorizationLimits.maximumUsageDescriptionBytes))
        let page = AuthorizationApps(locationServicesEnabled: true, page: [largest, largest], after: nil)
        #expect(page.apps.count == 1 && page.more)
        #expect(Self.line(page).count <= ProtocolLimits.maximumLineLength)
    }
}
