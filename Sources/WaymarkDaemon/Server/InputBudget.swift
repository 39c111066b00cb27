
/// The memory the server lets clients' unfinished input (partial lines and lines not yet
/// handled) take, in total and per peer user, so that no user can make the daemon outgrow
/// its memory limit or crowd out the others. Counted in allocated bytes.
struct InputBudget {
    /// Bytes all connections together may hold.
    let total: Int
    /// Bytes the connections of one user (by `SO_PEERCRED` uid) may hold.
    let perUser: Int
    /// Bytes held now.
    private(set) var used = 0
    private var usedByUser: [UInt32: Int] = [:]

    init(total: Int, perUser: Int) {
        self.total = total
        self.perUser = perUser
    }

    /// Records that a connection of `user` holds `bytes` instead of `previous`; returns
    /// whether it shrank or both budgets still hold (the change is recorded either way).
    mutating func change(_ user: UInt32, from previous: Int, to bytes: Int) -> Bool {
        guard bytes != previous else { return true }
        used += bytes - previous
        let mine = usedByUser[user, default: 0] + bytes - previous
        usedByUser[user] = mine == 0 ? nil : mine
        return bytes < previous || (used <= total && mine <= perUser)
    }

    /// Bytes the connections of `user` hold.
    func used(by user: UInt32) -> Int { usedByUser[user, default: 0] }
}
