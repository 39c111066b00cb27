import CSQLite

/// The current row of a query, read column by column (from 0) with the type the schema
/// declares. A column holding another type (a damaged or hand-edited file) is an error, never a
/// silent conversion. Valid only inside the closure it is passed to.
package struct Row {
    let handle: OpaquePointer
    let sql: String

    /// The integer in `column`.
    package func int64(_ column: Int32) throws(StoreError) -> Int64 {
        try expect(SQLITE_INTEGER, column)
        return sqlite3_column_int64(handle, column)
    }

    /// The floating-point number in `column` (an integer is widened, as SQL's REAL affinity does).
    package func double(_ column: Int32) throws(StoreError) -> Double {
        if sqlite3_column_type(handle, column) != SQLITE_INTEGER { try expect(SQLITE_FLOAT, column) }
        return sqlite3_column_double(handle, column)
    }

    /// The text in `column`; bytes that are not UTF-8 become U+FFFD.
    package func string(_ column: Int32) throws(StoreError) -> String {
        try expect(SQLITE_TEXT, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_text(handle, column) else {
            guard count == 0 else { throw mismatch(column, "text that SQLite could not return") }
            return ""
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The Boolean in `column`, stored as the integer 0 or 1.
    package func bool(_ column: Int32) throws(StoreError) -> Bool {
        switch try int64(column) {
        case 0: return false
        case 1: return true
        case let other: throw mismatch(column, "\(other) where a Boolean (0 or 1) belongs")
        }
    }

    /// Whether `column` is SQL `NULL`.
    package func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The text in `column`, or nil when it is `NULL`.
    package func optionalString(_ column: Int32) throws(StoreError) -> String? {
        isNull(column) ? nil : try string(column)
    }

    /// The enumeration case named by the text in `column`; an unknown name is an error.
    package func enumeration<Value: RawRepresentable<String>>(_ column: Int32) throws(StoreError) -> Value {
        let text = try string(column)
        guard let value = Value(rawValue: text) else { throw mismatch(column, "unknown \(Value.self) \"\(text)\"") }
        return value
    }

    private func expect(_ type: Int32, _ column: Int32) throws(StoreError) {
        let found = sqlite3_column_type(handle, column)
        guard found == type else {
            throw mismatch(column, "\(Self.typeName(found)) where \(Self.typeName(type)) belongs")
        }
    }

    private func mismatch(_ column: Int32, _ message: String) -> StoreError {
        StoreError(.unexpectedValue, operation: "read column \(column) of \(sql)", message: message)
    }

    private static func typeName(_ type: Int32) -> String {
        switch type {
        case SQLITE_INTEGER: "an integer"
        case SQLITE_FLOAT: "a real"
        case SQLITE_TEXT: "text"
        case SQLITE_BLOB: "a blob"
        default: "NULL"
        }
    }
}
