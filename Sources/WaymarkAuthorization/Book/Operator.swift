/// Proof that a request comes from Waymark's operator: root, or a member of the
/// `waymark-admin` group. Only ``verify(uid:groups:administratorGroup:)`` makes one, from the
/// kernel's credentials and the user database, so an app can never grant itself anything:
/// every operator change (``AuthorizationChange``) carries one.
package struct Operator: Hashable, Sendable {
    /// The operator's uid.
    package let uid: UInt32

    private init(uid: UInt32) {
        self.uid = uid
    }

    /// The operator `uid` is, or nil: `uid` 0, or `groups` (all of the user's groups)
    /// containing `administratorGroup` (the gid of `waymark-admin`, nil when there is none).
    package static func verify(uid: UInt32, groups: [UInt32], administratorGroup: UInt32?) -> Operator? {
        if uid == 0 { return Operator(uid: uid) }
        guard let administratorGroup, groups.contains(administratorGroup) else { return nil }
        return Operator(uid: uid)
    }
}
