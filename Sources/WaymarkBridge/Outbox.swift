import WaymarkBridgeCore
import WaymarkStore

/// The bridge's SQLite outbox (WaymarkStore: WAL, `synchronous=FULL`, the ownership check):
/// messages wait here, in order, until the broker acknowledges them, and survive the bridge's
/// own crash. Bounded by an ``OutboxPolicy``: the oldest are dropped first and counted.
final class Outbox {
    /// One stored message and its place in the order.
    struct Entry: Hashable {
        var sequence: Int64
        var message: OutgoingMessage
    }

    let database: Database
    private let policy: OutboxPolicy

    /// The schema: step 1 creates the messages and the drop counter, step 2 the regions
    /// (``Outbox/regions(_:now:)``) and the receipts of the monitor events taken.
    static let migrations = [
        Migration(
            """
            CREATE TABLE messages (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                topic TEXT NOT NULL,
                payload TEXT NOT NULL,
                retain INTEGER NOT NULL CHECK (retain IN (0, 1))
            ) STRICT;
            CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
            INSERT INTO counters (name, value) VALUES ('dropped', 0);
            """),
        Migration(
            """
            CREATE TABLE regions (
                name TEXT PRIMARY KEY,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                radius REAL NOT NULL,
                created INTEGER NOT NULL,
                state TEXT CHECK (state IN ('inside', 'outside'))
            ) STRICT;
            CREATE TABLE receipts (
                sequence INTEGER PRIMARY KEY,
                region TEXT NOT NULL,
                state TEXT NOT NULL,
                date INTEGER NOT NULL
            ) STRICT;
            """),
    ]

    /// Opens (creating if needed) the outbox at `path`.
    init(path: String, policy: OutboxPolicy) throws(StoreError) {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
        self.policy = policy
    }

    /// Appends `messages` in one transaction (one `fsync`), then drops the oldest beyond the
    /// bound, never `inFlight` (the message on its way to the broker); `droppedBefore` more were
    /// dropped before they reached the outbox and are counted too.
    ///
    /// Each of `events` moves its region's state in the same transaction and adds the
    /// transition message `transition` makes for it, if any (``RegionEvent/transition(after:)``);
    /// an event whose receipt is here already (taken before a crash, not acknowledged yet)
    /// changes nothing. Returns how many such events came again.
    @discardableResult
    func append(
        _ messages: [OutgoingMessage], events: [RegionEvent], droppedBefore: Int, inFlight: Int64?,
        transition: (RegionEvent, OwnTracksPayload.Transition) -> OutgoingMessage?
    ) throws(StoreError) -> Int {
        guard !messages.isEmpty || !events.isEmpty || droppedBefore > 0 else { return 0 }
        return try database.transaction { () throws(StoreError) in
            try database.run("UPDATE counters SET value = value + ? WHERE name = 'dropped'", [.integer(Int64(droppedBefore))])
            var messages = messages
            var repeated = 0
            for event in events {
                switch try take(event, transition: transition) {
                case .repeated: repeated += 1
                case .taken(let message?): messages.append(message)
                case .taken(nil): break
                }
            }
            for message in messages {
                try database.run(
                    "INSERT INTO messages (topic, payload, retain) VALUES (?, ?, ?)",
                    [.text(message.topic), .text(message.payload), .bool(message.retain)])
            }
            let overflow = policy.overflow(queued: try count())
            guard overflow > 0 else { return repeated }
            let dropped = try database.run(
                "DELETE FROM messages WHERE sequence IN (SELECT sequence FROM messages WHERE sequence IS NOT ? ORDER BY sequence LIMIT ?)",
                [inFlight.map(SQLValue.integer) ?? .null, .integer(Int64(overflow))])
            try database.run("UPDATE counters SET value = value + ? WHERE name = 'dropped'", [.integer(Int64(dropped))])
            return repeated
        }
    }

    /// The oldest message, if any.
    func oldest() throws(StoreError) -> Entry? {
        try database.rows("SELECT sequence, topic, payload, retain FROM messages ORDER BY sequence LIMIT 1") {
            row throws(StoreError) in
            Entry(
                sequence: try row.int64(0),
                message: OutgoingMessage(topic: try row.string(1), payload: try row.string(2), retain: try row.bool(3)))
        }.first
    }

    /// Deletes message `sequence`: the broker acknowledged it.
    func delete(_ sequence: Int64) throws(StoreError) {
        try database.run("DELETE FROM messages WHERE sequence = ?", [.integer(sequence)])
    }

    /// Messages waiting.
    func count() throws(StoreError) -> Int {
        let counts = try database.rows("SELECT count(*) FROM messages") { row throws(StoreError) in try row.int64(0) }
        return Int(counts.first ?? 0)
    }

    /// Messages dropped for the bound since the outbox was created.
    func dropped() throws(StoreError) -> Int64 {
        try database.rows("SELECT value FROM counters WHERE name = 'dropped'") { row throws(StoreError) in try row.int64(0) }
            .first ?? 0
    }
}
