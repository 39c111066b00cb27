import Waymark
import WaymarkAuthorization
import WaymarkSystem
package import WaymarkProtocol

/// What `waymark auth` prints and sends.
package enum AuthView {
    /// Prints the apps (or those waiting for an answer), one block each.
    static func print(pendingOnly: Bool) async throws {
        var lines: [String] = []
        var after: AppReference?
        repeat {
            guard case .apps(let answer) = try await WaymarkAgent.perform(.authorizationApps(after: after)) else {
                throw CommandFailure("the daemon answered authorizationApps with something else")
            }
            if after == nil { lines.append("location services \(answer.locationServicesEnabled ? "on" : "off")") }
            for entry in answer.apps where !pendingOnly || entry.request != nil || entry.temporaryFullAccuracy == .requested {
                lines += describe(entry)
            }
            after = answer.more ? answer.apps.last?.app : nil
        } while after != nil
        try StandardOutput().write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// One app: its identity, decision, waiting request and temporary accuracy.
    package static func describe(_ entry: AuthorizationAppEntry) -> [String] {
        let state = entry.authorization?.rawValue ?? "undecided"
        let accuracy = entry.fullAccuracy.map { $0 ? "full" : "reduced" } ?? "full"
        var lines = ["\(DisplayText.escaped(entry.app.description))  \(state), \(accuracy) accuracy"]
        if let request = entry.request {
            let description = request.usageDescription.isEmpty ? "" : ": " + DisplayText.escaped(request.usageDescription)
            lines.append("  asks for \(request.authorization.rawValue) (uid \(request.uid))\(description)")
        }
        switch entry.temporaryFullAccuracy {
        case .none: break
        case .requested:
            let purpose = (entry.purposeKey ?? "").isEmpty ? "" : ": " + DisplayText.escaped(entry.purposeKey ?? "")
            lines.append("  asks for temporary full accuracy\(purpose)")
        case .granted: lines.append("  has temporary full accuracy")
        case .declined: lines.append("  was refused temporary full accuracy")
        }
        return lines
    }

    /// Sends the operator's decision.
    static func decide(_ request: AuthorizeAppRequest) async throws {
        _ = try await WaymarkAgent.perform(.authorizeApp(request))
    }
}
