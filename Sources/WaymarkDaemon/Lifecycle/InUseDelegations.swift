import WaymarkEngine

/// An in-use delegation (`startInUseDelegation`), unique per daemon run.
package struct InUseDelegationID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// Who handed "in use" to whom (docs/semantics.md, "In-use delegation"; the seed's Watch →
/// iPhone case, WWDC15 714): each delegation's giver, its token until accepted, and who
/// accepted it. Part of the server's book (``Holdings``); everything a client gave or
/// accepted ends with its connection.
struct InUseDelegations {
    private struct Delegation {
        let giver: ClientID
        var token: String?
        var receiver: ClientID?
    }

    private var delegations: [InUseDelegationID: Delegation] = [:]
    private var byToken: [String: InUseDelegationID] = [:]
    private var given: [ClientID: Set<InUseDelegationID>] = [:]
    private var accepted: [ClientID: Set<InUseDelegationID>] = [:]
    private var last: InUseDelegationID = 0

    /// How many delegations `client` gave and has not ended.
    func givenCount(of client: ClientID) -> Int { given[client]?.count ?? 0 }
    /// How many delegations `client` accepted and holds.
    func acceptedCount(of client: ClientID) -> Int { accepted[client]?.count ?? 0 }
    /// Who accepted `id`, if anyone has.
    func receiver(of id: InUseDelegationID) -> ClientID? { delegations[id]?.receiver }
    /// The clients holding a delegation `giver` gave.
    func receivers(givenBy giver: ClientID) -> Set<ClientID> { Set((given[giver] ?? []).compactMap { delegations[$0]?.receiver }) }

    /// A new delegation by `giver`, to be accepted with `token`.
    mutating func add(by giver: ClientID, token: String) -> InUseDelegationID {
        last = last.next
        delegations[last] = Delegation(giver: giver, token: token)
        byToken[token] = last
        given[giver, default: []].insert(last)
        return last
    }

    /// `receiver` accepts the delegation `token` names, once, if another client gave it.
    mutating func accept(_ token: String, by receiver: ClientID) -> InUseDelegationID? {
        guard let id = byToken[token], let delegation = delegations[id], delegation.giver != receiver else { return nil }
        byToken[token] = nil
        delegations[id]?.token = nil
        delegations[id]?.receiver = receiver
        accepted[receiver, default: []].insert(id)
        return id
    }

    /// Ends `id` if `client` gave or accepted it; returns whether it did.
    mutating func end(_ id: InUseDelegationID, by client: ClientID) -> Bool {
        guard let delegation = delegations[id], delegation.giver == client || delegation.receiver == client else { return false }
        remove(id)
        return true
    }

    /// Ends every delegation `giver` gave; returns the clients that held one.
    mutating func revokeAll(givenBy giver: ClientID) -> Set<ClientID> {
        var receivers = Set<ClientID>()
        for id in given[giver] ?? [] {
            if let receiver = delegations[id]?.receiver { receivers.insert(receiver) }
            remove(id)
        }
        return receivers
    }

    /// Ends everything `client` gave or accepted.
    mutating func removeClient(_ client: ClientID) {
        _ = revokeAll(givenBy: client)
        for id in accepted[client] ?? [] { remove(id) }
    }

    private mutating func remove(_ id: InUseDelegationID) {
        guard let delegation = delegations.removeValue(forKey: id) else { return }
        if let token = delegation.token { byToken[token] = nil }
        given[delegation.giver]?.remove(id)
        if given[delegation.giver]?.isEmpty == true { given[delegation.giver] = nil }
        if let receiver = delegation.receiver {
            accepted[receiver]?.remove(id)
            if accepted[receiver]?.isEmpty == true { accepted[receiver] = nil }
        }
    }
}
