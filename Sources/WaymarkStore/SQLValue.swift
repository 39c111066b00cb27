/// A value bound to a statement's `?` parameter, one of SQLite's storage classes.
package enum SQLValue: Hashable, Sendable {
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit IEEE floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// SQL `NULL`.
    case null

    /// A Boolean, stored as SQLite does: the integer 1 or 0.
    package static func bool(_ value: Bool) -> SQLValue {
        .integer(value ? 1 : 0)
    }

    /// `text` or `NULL` when absent.
    package static func optionalText(_ value: String?) -> SQLValue {
        value.map(SQLValue.text) ?? .null
    }
}
