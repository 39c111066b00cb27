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

    /// All zero.
    public init() {}
}
