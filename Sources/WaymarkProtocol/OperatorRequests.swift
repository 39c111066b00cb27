import WaymarkJSON

/// An app as the daemon knows it (the kernel's facts, never the client's word): the kind of
/// identity (`appID`, `unit`, `userUnit`, `executable`, `uid`) and its key
/// (`docs/authorization.md`, "Who an app is").
package struct AppReference: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kind of identity.
    package var kind: String
    /// The key within the kind.
    package var key: String

    /// Creates a reference.
    package init(kind: String, key: String) {
        self.kind = kind
        self.key = key
    }

    /// The order of the apps in `authorizationApps`: by kind, then by key.
    package static func < (left: AppReference, right: AppReference) -> Bool {
        (left.kind, left.key) < (right.kind, right.key)
    }

    /// `kind:key`, as `waymark auth` takes and shows it.
    package var description: String { "\(kind):\(key)" }

    /// Reads `kind:key`; nil without a colon, or with an empty kind or key.
    package init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let kind = String(text[..<colon])
        let key = String(text[text.index(after: colon)...])
        guard !kind.isEmpty, !key.isEmpty else { return nil }
        self.init(kind: kind, key: key)
    }

    /// Writes the reference as an object.
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("kind", text: kind)
        buffer.member("key", text: key)
        buffer.endObject()
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(kind: try fields.string("kind"), key: try fields.string("key"))
    }
}

/// The operator's decision about an app (`authorizeApp`, protocol version 2): a new state
/// (`notDetermined` forgets the decision and the request; `restricted` only a policy sets),
/// a new accuracy, or both.
package struct AuthorizeAppRequest: Hashable, Sendable {
    /// The app.
    package var app: AppReference
    /// The new state, if it changes.
    package var authorization: AuthorizationState?
    /// The new accuracy, if it changes.
    package var fullAccuracy: Bool?

    /// Creates a request.
    package init(app: AppReference, authorization: AuthorizationState?, fullAccuracy: Bool?) {
        self.app = app
        self.authorization = authorization
        self.fullAccuracy = fullAccuracy
    }
}

/// Temporary full accuracy of an app as the operator sees it.
package enum TemporaryAccuracyState: String, Hashable, Sendable, CaseIterable, ProtocolNamed {
    /// Nothing asked or given.
    case none
    /// Asked for; not answered.
    case requested
    /// Given until the app's last session ends.
    case granted
    /// Refused until the app's last session ends.
    case declined
}

/// An app's request waiting for the operator: what it asks for, why, and the uid that asked.
package struct WaitingRequest: Hashable, Sendable {
    /// `whenInUse` or `always`.
    package var authorization: AuthorizationState
    /// What the app says it needs location for.
    package var usageDescription: String
    /// The uid of the process that asked.
    package var uid: Int

    /// Creates a request.
    package init(authorization: AuthorizationState, usageDescription: String, uid: Int) {
        self.authorization = authorization
        self.usageDescription = usageDescription
        self.uid = uid
    }
}

/// One app in the answer to `authorizationApps`.
package struct AuthorizationAppEntry: Hashable, Sendable {
    /// Who it is.
    package var app: AppReference
    /// The operator's decision (`nil`: none; a policy may still decide).
    package var authorization: AuthorizationState?
    /// The operator's accuracy (`nil`: none set).
    package var fullAccuracy: Bool?
    /// The request waiting for the operator.
    package var request: WaitingRequest?
    /// Its temporary full accuracy, and the purpose key asked with.
    package var temporaryFullAccuracy: TemporaryAccuracyState
    /// The purpose key of a temporary full accuracy request.
    package var purposeKey: String?

    /// Creates an entry.
    package init(
        app: AppReference, authorization: AuthorizationState?, fullAccuracy: Bool?,
        request: WaitingRequest?,
        temporaryFullAccuracy: TemporaryAccuracyState, purposeKey: String?
    ) {
        self.app = app
        self.authorization = authorization
        self.fullAccuracy = fullAccuracy
        self.request = request
        self.temporaryFullAccuracy = temporaryFullAccuracy
        self.purposeKey = purposeKey
    }

    /// Writes the entry as an object (an absent optional is left out).
    func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.key("app")
        app.write(to: &buffer)
        if let authorization { buffer.member("authorization", text: authorization.rawValue) }
        if let fullAccuracy { buffer.member("fullAccuracy", fullAccuracy) }
        if let request {
            buffer.key("request")
            buffer.beginObject()
            buffer.member("authorization", text: request.authorization.rawValue)
            buffer.member("usageDescription", text: request.usageDescription)
            buffer.member("uid", request.uid)
            buffer.endObject()
        }
        buffer.member("temporaryFullAccuracy", text: temporaryFullAccuracy.rawValue)
        if let purposeKey { buffer.member("purposeKey", text: purposeKey) }
        buffer.endObject()
    }

    init(_ fields: Fields) throws(ProtocolError) {
        let request = try fields.optionalFields("request").map { (request) throws(ProtocolError) in
            WaitingRequest(
                authorization: try request.named("authorization", as: AuthorizationState.self),
                usageDescription: try request.string("usageDescription"), uid: try request.integer("uid"))
        }
        self.init(
            app: try AppReference(fields.fields("app")),
            authorization: try fields.optionalNamed("authorization", as: AuthorizationState.self),
            fullAccuracy: try fields.optional("fullAccuracy", "a boolean") { $0.boolValue }, request: request,
            temporaryFullAccuracy: try fields.named("temporaryFullAccuracy", as: TemporaryAccuracyState.self),
            purposeKey: try fields.optionalString("purposeKey"))
    }
}

/// The answer to `authorizationApps`: the board's switch and one page of the apps the daemon
/// knows, in the order of their references (kind, then key); `more` when others follow, to
/// ask for with the last one as `after`.
package struct AuthorizationApps: Hashable, Sendable {
    /// The board's location-services switch.
    package var locationServicesEnabled: Bool
    /// The apps, by identity.
    package var apps: [AuthorizationAppEntry]
    /// Whether apps follow the last of ``apps``.
    package var more: Bool

    /// Creates an answer.
    package init(locationServicesEnabled: Bool, apps: [AuthorizationAppEntry], more: Bool = false) {
        self.locationServicesEnabled = locationServicesEnabled
        self.apps = apps
        self.more = more
    }

    /// The page of `entries` (in the order of their references) that follows `after`
    /// (``ReplyPage``).
    package init(locationServicesEnabled: Bool, page entries: [AuthorizationAppEntry], after: AppReference?) {
        let following = entries.drop { entry in after.map { !($0 < entry.app) } ?? false }
        let page = ReplyPage.first(of: following) { entry, buffer in entry.write(to: &buffer) }
        self.init(locationServicesEnabled: locationServicesEnabled, apps: page.entries, more: page.more)
    }

    /// Writes the members of the reply's `result`.
    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("locationServices", locationServicesEnabled)
        ReplyPage.write("apps", apps, more: more, to: &buffer) { app, buffer in app.write(to: &buffer) }
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(
            locationServicesEnabled: try fields.bool("locationServices"), apps: try fields.objects("apps", AuthorizationAppEntry.init),
            more: try ReplyPage.more(in: fields))
    }
}
