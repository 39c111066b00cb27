/// What the server has done since it started, for benchmarks and `status`.
public struct ServerCounters: Hashable, Sendable {
    /// Connections accepted.
    public var connectionsAccepted = 0
    /// Request lines received (valid or not).
    public var messagesIn = 0
    /// Messages (replies and events) handed to the kernel in full or in part.
    public var messagesOut = 0
    /// Updates that a newer one replaced before a slow client read them.
    public var updatesCoalesced = 0
    /// Clients disconnected because their replies piled up unread.
    public var slowClientsDisconnected = 0
    /// Connections refused because their user held its share of connections.
    public var clientsRefusedOverUserCap = 0
    /// Connections closed for not saying `hello` in time.
    public var clientsClosedWithoutHello = 0
    /// Connections refused because their unfinished input took them over a budget.
    public var clientsRefusedOverInputBudget = 0

    /// All zero.
    public init() {}
}
