import WaymarkAuthorization
import WaymarkEngine

/// What the ``Authorizer`` asks of the server about a connection. The server is the one owner
/// of who each client is: its credentials, process facts and policy, read once at accept.
protocol AuthorizationPeers: AnyObject {
    /// The uid and policy of `client`; nil once it is gone.
    func identity(of client: ClientID) -> (uid: UInt32, policy: EffectivePolicy)?
}
