import WaymarkJSON
import WaymarkSystem

/// Who an app is, as the kernel says (never as the client claims): a declared `appID` that a
/// policy binds to the process, else its systemd unit (system or user), else its executable
/// together with its uid, else its uid alone (docs/authorization.md, "Who an app is").
///
/// `key` is what the store keeps: the appID, the system unit's name, `UID:unit` for a user
/// unit, `UID:/path` for an executable, the decimal uid.
package struct AppIdentity: Hashable, Sendable, CustomStringConvertible {
    /// Which of the kernel's facts identifies the app.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case appID, unit, userUnit, executable, uid
    }

    /// Which of the kernel's facts identifies the app.
    package var kind: Kind
    /// The appID, unit, `UID:unit`, `UID:/path` or decimal uid.
    package var key: String

    /// The app identified by `key` of `kind`.
    package init(_ kind: Kind, _ key: String) {
        self.kind = kind
        self.key = key
    }

    /// The app a policy knows by its declared `appID`.
    package static func appID(_ appID: String) -> AppIdentity { AppIdentity(.appID, appID) }

    /// The app that is the system unit `name`.
    package static func systemUnit(_ name: String) -> AppIdentity { AppIdentity(.unit, name) }

    /// The app that is the unit `name` of the user manager of `uid`.
    package static func userUnit(_ name: String, uid: UInt32) -> AppIdentity { AppIdentity(.userUnit, "\(uid):\(name)") }

    /// The app that is the program at `path` run by `uid`.
    package static func executable(_ path: String, uid: UInt32) -> AppIdentity { AppIdentity(.executable, "\(uid):\(path)") }

    /// The app that is everything `uid` runs outside a unit, when the executable is unknown.
    package static func user(_ uid: UInt32) -> AppIdentity { AppIdentity(.uid, String(uid)) }

    /// The uid that can make this app at will, or nil for an app only the operator makes.
    /// A uid makes a new `executable` app with each copy of a program under a new path, a new
    /// `userUnit` app with each unit of its own, and is the `uid` app itself; an `appID` (which
    /// a policy binds) or a system `unit` exists only as root configured it. Limits on what
    /// apps keep in the daemon count such apps together, by this uid.
    package var mintingUID: UInt32? {
        switch kind {
        case .executable, .userUnit: UInt32(key.prefix { $0 != ":" })
        case .uid: UInt32(key)
        case .appID, .unit: nil
        }
    }

    /// `unit:gpsd-logger.service`, `executable:1000:/usr/bin/tracker`, `uid:1001`: for logs
    /// and `waymark status`, with control characters escaped so that a hostile name cannot
    /// forge a log line.
    package var description: String { "\(kind.rawValue):\(DisplayText.escaped(key))" }

    /// The longest ``briefDescription``, UTF-8 bytes.
    package static let briefDescriptionBytes = 128

    /// ``description`` cut to ``briefDescriptionBytes`` (on a character boundary, ending in
    /// `…`), for a list that must fit a reply line: `status` lists 64 apps, and an executable's
    /// path alone may be 4,095 bytes, four times as long once its control characters are
    /// escaped.
    package var briefDescription: String { description.cut(toUTF8Bytes: Self.briefDescriptionBytes) }
}
