/// A value in the TOML subset board files use: strings, integers (decimal or `0x` hex),
/// decimals, booleans and arrays of these.
package enum TOMLValue: Hashable, Sendable {
    /// A basic string, `"…"`, with `\"`, `\\`, `\n` and `\t` escapes.
    case string(String)
    /// An integer such as `115200`, `0x53` or `1_000`.
    case integer(Int)
    /// A decimal such as `9.5`.
    case decimal(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// `[a, b, …]`, possibly over several lines.
    case array([TOMLValue])

    /// How the value is named in an error message: `"fast"`, `12`, `[…]`.
    package var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .decimal(let number): String(number)
        case .boolean(let flag): String(flag)
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// One `key = value` line, with the line it came from for error messages.
package struct TOMLEntry: Hashable, Sendable {
    /// The value.
    package var value: TOMLValue
    /// The 1-based line number in the file.
    package var line: Int
}

/// A table: the entries under one `[header]` (or before the first header), by key.
package struct TOMLTable: Hashable, Sendable {
    /// The table's dotted name (`""` for the top level, `gpio.enable`, `wiring`).
    package var name: String
    /// The line of its header (0 for the top level).
    package var line: Int
    /// Its entries by key.
    package var entries: [String: TOMLEntry] = [:]
    /// Its keys in file order.
    package var keys: [String] = []
}

/// A parsed file: the top-level table, the named tables and the arrays of tables.
package struct TOMLDocument: Hashable, Sendable {
    /// Every `[name]` table (and the top level under `""`), by dotted name.
    package var tables: [String: TOMLTable] = ["": TOMLTable(name: "", line: 0)]
    /// Every `[[name]]` array of tables, by name, in file order.
    package var tableArrays: [String: [TOMLTable]] = [:]
}
