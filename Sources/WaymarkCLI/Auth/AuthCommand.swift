import ArgumentParser
import Waymark
import WaymarkProtocol

/// `waymark auth`: the operator's view and decisions (docs/authorization.md). The daemon is
/// the one writer of the store; it accepts these only from root or `waymark-admin`.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth", abstract: "See and decide which apps may know where the board is (root or waymark-admin).",
        subcommands: [
            AuthList.self, AuthPending.self, AuthGrant.self, AuthDeny.self, AuthReset.self, AuthAccuracy.self,
            AuthTemporary.self, AuthServices.self,
        ])
}

/// An app as `waymark auth list` prints it: `kind:key`.
struct AppArgument: ExpressibleByArgument {
    let reference: AppReference

    init?(argument: String) {
        guard let reference = AppReference(parsing: argument) else { return nil }
        self.reference = reference
    }

    static var defaultValueDescription: String { "kind:key, as `waymark auth list` prints it (unit:gpsd.service)" }
}

/// Accuracy as the operator names it.
enum AccuracyArgument: String, ExpressibleByArgument, CaseIterable {
    case full, reduced
}

struct AuthList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every app the daemon knows, with its authorization.")

    func run() async throws { try await AuthView.print(pendingOnly: false) }
}

struct AuthPending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending", abstract: "The apps waiting for an answer: authorization or temporary full accuracy.")

    func run() async throws { try await AuthView.print(pendingOnly: true) }
}

struct AuthGrant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "grant", abstract: "Authorize an app (when in use, or always).")

    @Argument(help: "The app (kind:key).") var app: AppArgument
    @Flag(name: .long, help: "Authorize it always, not only while in use.") var always = false
    @Option(name: .long, help: "Its accuracy: full or reduced (default: as before, else full).") var accuracy: AccuracyArgument?

    func run() async throws {
        try await AuthView.decide(AuthorizeAppRequest(
            app: app.reference, authorization: always ? .always : .whenInUse, fullAccuracy: accuracy.map { $0 == .full }))
    }
}

struct AuthDeny: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deny", abstract: "Deny an app (its accuracy is kept).")

    @Argument(help: "The app (kind:key).") var app: AppArgument

    func run() async throws {
        try await AuthView.decide(AuthorizeAppRequest(app: app.reference, authorization: .denied, fullAccuracy: nil))
    }
}

struct AuthReset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Forget the decision about an app: it is not determined again.")

    @Argument(help: "The app (kind:key).") var app: AppArgument

    func run() async throws {
        try await AuthView.decide(AuthorizeAppRequest(app: app.reference, authorization: .notDetermined, fullAccuracy: nil))
    }
}

struct AuthAccuracy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accuracy", abstract: "Set an app's accuracy, keeping its authorization.")

    @Argument(help: "The app (kind:key).") var app: AppArgument
    @Argument(help: "full or reduced.") var accuracy: AccuracyArgument

    func run() async throws {
        try await AuthView.decide(AuthorizeAppRequest(app: app.reference, authorization: nil, fullAccuracy: accuracy == .full))
    }
}

struct AuthTemporary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "temporary",
        abstract: "Give or refuse an app temporary full accuracy, until its last session ends.")

    @Argument(help: "The app (kind:key).") var app: AppArgument
    @Argument(help: "grant or deny.") var answer: Answer

    enum Answer: String, ExpressibleByArgument, CaseIterable { case grant, deny }

    func run() async throws {
        _ = try await WaymarkAgent.perform(.answerTemporaryFullAccuracy(app: app.reference, granted: answer == .grant))
    }
}

struct AuthServices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "services", abstract: "Switch location services for the whole board on or off.")

    @Argument(help: "on or off.") var state: State

    enum State: String, ExpressibleByArgument, CaseIterable { case on, off }

    func run() async throws {
        _ = try await WaymarkAgent.perform(.setLocationServices(enabled: state == .on))
    }
}
