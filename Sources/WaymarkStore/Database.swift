import CSQLite

/// A connection to one SQLite database file, opened for the daemon as its one writer.
///
/// Opening checks that only the daemon's user (or root) can change the file and its directory,
/// then sets write-ahead logging, `synchronous=FULL` (a committed change survives power loss,
/// see docs/store.md), foreign keys and a busy timeout. Not `Sendable`: one thread owns it.
package final class Database {
    /// The database file's path.
    package let path: String
    private let connection: OpaquePointer

    /// Opens (creating if needed) the database at `path`, refusing an unsafe file or directory
    /// and a file that is not a database. A reader holding a lock is waited for up to
    /// `busyTimeoutMilliseconds`.
    package convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(StoreError) {
        try FileSafety.checkDatabase(at: path)
        try self.init(opening: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        // The first read of the file: a file that is not a database fails here (SQLITE_NOTADB).
        let journal = try rows("PRAGMA journal_mode=WAL") { row throws(StoreError) in try row.string(0) }
        guard journal == ["wal"] else {
            throw StoreError(
                .sqlite, operation: "open \(path)",
                message: "write-ahead logging is unavailable (journal mode \(journal))")
        }
        try execute(
            """
            PRAGMA synchronous=FULL;
            PRAGMA foreign_keys=ON;
            PRAGMA trusted_schema=OFF;
            PRAGMA cell_size_check=ON;
            """)
    }

    /// A database in memory, gone when closed: a scratch copy of a schema to compare with.
    static func inMemory() throws(StoreError) -> Database {
        try Database(opening: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_MEMORY)
    }

    private init(opening path: String, flags: Int32) throws(StoreError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = StoreError.sqlite(code == SQLITE_OK ? SQLITE_NOMEM : code, opened, "open \(path)")
            sqlite3_close_v2(opened)
            throw error
        }
        self.path = path
        connection = opened
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// Runs `sql`, one or more statements without parameters and results (a schema script).
    package func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw StoreError.sqlite(code, connection, "execute \(sql)") }
    }

    /// Runs one statement with `values` bound to its parameters, discarding any rows; returns
    /// how many rows it inserted, changed or deleted.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> Int {
        let statement = try Statement(sql, on: connection)
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes64(connection))
    }

    /// Runs one query with `values` bound to its parameters and returns each row as `read` makes it.
    package func rows<Result>(
        _ sql: String, _ values: [SQLValue] = [], read: (Row) throws(StoreError) -> Result
    ) throws(StoreError) -> [Result] {
        let statement = try Statement(sql, on: connection)
        try statement.bind(values)
        var results: [Result] = []
        while try statement.step() {
            results.append(try read(statement.row))
        }
        return results
    }

    /// Like ``rows(_:_:read:)``, but a row `read` finds damaged (a value the schema does not
    /// allow: a hand-edited or damaged file, ``StoreError/Kind/unexpectedValue``) is left out
    /// and handed to `damaged`: one bad row does not cost the rest.
    package func rows<Result>(
        _ sql: String, _ values: [SQLValue] = [], skippingDamaged damaged: (StoreError) -> Void, read: (Row) throws(StoreError) -> Result
    ) throws(StoreError) -> [Result] {
        try rows(sql, values) { row throws(StoreError) -> Result? in
            do throws(StoreError) {
                return try read(row)
            } catch where error.kind == .unexpectedValue {
                damaged(error)
                return nil
            }
        }.compactMap { $0 }
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so it holds the write lock from the
    /// start): committed when `body` returns, rolled back when it or the commit throws. Once this
    /// returns, the change is on disk.
    @discardableResult
    package func transaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may have ended the transaction already; roll back only if it is open.
            if sqlite3_get_autocommit(connection) == 0 { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// The problems `PRAGMA integrity_check` finds: empty when the file is sound.
    package func integrityProblems() throws(StoreError) -> [String] {
        let report = try rows("PRAGMA integrity_check") { row throws(StoreError) in try row.string(0) }
        return report == ["ok"] ? [] : report
    }
}
