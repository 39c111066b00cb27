import WaymarkAuthorization
import WaymarkEngine

/// What the ``Authorizer`` asks of the server about a connection. The server is the one owner
/// of who each client is (its credentials, process facts and policy, read once at accept) and
/// of what makes it in use (its background activity sessions and the delegations it accepted).
protocol AuthorizationPeers: AnyObject {
    /// The uid and policy of `client`; nil once it is gone.
    func identity(of client: ClientID) -> (uid: UInt32, policy: EffectivePolicy)?
    /// Why `client` is in use; nil once it is gone.
    func inUseEvidence(of client: ClientID) -> InUseEvidence?
}
