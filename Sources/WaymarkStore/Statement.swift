import CSQLite

/// One prepared SQL statement of a ``Database``, bound to its parameters and stepped through its
/// rows. It lives only inside ``Database/run(_:_:)`` and ``Database/rows(_:_:read:)``.
final class Statement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String

    /// Compiles `sql` (one statement) on `connection` with `sqlite3_prepare_v2`.
    init(_ sql: String, on connection: OpaquePointer) throws(StoreError) {
        var prepared: OpaquePointer?
        var trailing = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, text, -1, &prepared, &tail)
            // `tail` points into `text`, so it is read here, while `text` lives.
            if let tail { trailing = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw StoreError.sqlite(code == SQLITE_OK ? SQLITE_MISUSE : code, connection, "prepare \(sql)")
        }
        guard trailing.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(prepared)
            throw StoreError(.sqlite, sqliteCode: SQLITE_MISUSE, operation: "prepare \(sql)", message: "more than one statement")
        }
        handle = prepared
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to the statement's parameters, in order; their number must match.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw StoreError(
                .sqlite, sqliteCode: SQLITE_RANGE, operation: "bind \(sql)",
                message: "\(values.count) values for \(expected) parameters")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .null: code = sqlite3_bind_null(handle, index)
            case .text(let text):
                let length = UInt64(text.utf8.count)
                code = text.withCString {
                    sqlite3_bind_text64(handle, index, $0, length, Self.transient, UInt8(SQLITE_UTF8))
                }
            }
            guard code == SQLITE_OK else { throw StoreError.sqlite(code, connection, "bind \(sql)") }
        }
    }

    /// Runs the statement to its next row: `true` when a row is ready to be read, `false` when done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw StoreError.sqlite(code, connection, "step \(sql)")
        }
    }

    /// The current row's columns.
    var row: Row { Row(handle: handle, sql: sql) }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
