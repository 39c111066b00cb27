import CSQLite

/// A failure of the persistent store, with what the store was doing and why it failed.
///
/// Its description reads like `open /var/lib/waymark/store.db: file is not a database (SQLite 26)`.
/// None of these trap: a damaged, unreadable or unsafe file is an error the daemon reports.
package struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which kind of failure this is.
    package enum Kind: Hashable, Sendable {
        /// SQLite reported the failure; ``StoreError/sqliteCode`` holds its extended result code.
        case sqlite
        /// The database file or its directory could not be examined (`stat` failed).
        case inaccessibleFile
        /// Someone other than the daemon's user could replace or change the database.
        case unsafeFile
        /// The database was written by a newer schema than this build understands.
        case newerSchema
        /// A stored value is not what the schema allows (a damaged or hand-edited file).
        case unexpectedValue
        /// A change was refused because it would pass a size limit (a client's request).
        case limitExceeded
    }

    /// Which kind of failure this is.
    package var kind: Kind
    /// SQLite's extended result code (such as `SQLITE_CORRUPT`), when SQLite reported it.
    package var sqliteCode: Int32?
    /// What the store was doing, such as `open /var/lib/waymark/store.db`.
    package var operation: String
    /// Why it failed: SQLite's message or the store's own explanation.
    package var message: String

    /// Creates an error of `kind` while doing `operation`.
    package init(_ kind: Kind, sqliteCode: Int32? = nil, operation: String, message: String) {
        self.kind = kind
        self.sqliteCode = sqliteCode
        self.operation = operation
        self.message = message
    }

    /// `operation: message`, then SQLite's code if there is one.
    package var description: String {
        var text = "\(operation): \(message)"
        if let sqliteCode { text += " (SQLite \(sqliteCode))" }
        return text
    }

    /// The error SQLite reports for `code` on `connection` (or without one, its generic text).
    static func sqlite(_ code: Int32, _ connection: OpaquePointer?, _ operation: String) -> StoreError {
        let text = connection.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        let message = text.map { String(cString: $0) } ?? "unknown SQLite error"
        // The connection's extended code refines `code` (SQLITE_IOERR_FSYNC for SQLITE_IOERR).
        var extended = code
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == code & 0xFF {
            extended = sqlite3_extended_errcode(connection)
        }
        return StoreError(.sqlite, sqliteCode: extended, operation: operation, message: message)
    }
}
