/// What the server has done since it started, for benchmarks and `status`.
package struct ServerCounters: Hashable, Sendable {
    /// Connections accepted.
    package var connectionsAccepted = 0
    /// Request lines received (valid or not).
    package var messagesIn = 0
    /// Messages (replies and events) handed to the kernel in full or in part.
    package var messagesOut = 0
    /// Updates that a newer one replaced before a slow client read them.
    package var updatesCoalesced = 0
    /// Clients disconnected because their replies piled up unread.
    package var slowClientsDisconnected = 0
    /// Connections refused because their user held its share of connections.
    package var clientsRefusedOverUserCap = 0
    /// Connections closed for not saying `hello` in time.
    package var clientsClosedWithoutHello = 0
    /// Connections refused because their unfinished input took them over a budget.
    package var clientsRefusedOverInputBudget = 0

    /// All zero.
    package init() {}
}
