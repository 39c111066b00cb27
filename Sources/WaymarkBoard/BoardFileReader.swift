/// Reads typed values out of a parsed board file, turning every mismatch into a
/// ``BoardError`` that names the key, and rejecting keys nobody asked for (typos).
struct BoardFileReader {
    let file: String
    let document: TOMLDocument
    /// Dotted keys read so far, to find the unknown ones.
    private(set) var consumed: Set<String> = []
    /// Tables asked for so far, to find the unknown ones (even empty).
    private var knownTables: Set<String> = []

    init(file: String, document: TOMLDocument) {
        self.file = file
        self.document = document
    }

    /// Whether the file has `table`, marking the name known.
    mutating func hasTable(_ table: String) -> Bool {
        knownTables.insert(table)
        return document.tables[table] != nil
    }

    /// How many `[[name]]` tables the file has, marking the name known.
    mutating func tableCount(_ name: String) -> Int {
        knownTables.insert(name)
        return document.tableArrays[name]?.count ?? 0
    }

    /// The entry at `key` in `table` (or in the `index`th `[[table]]`), marking it read.
    mutating func entry(_ table: String, _ key: String, index: Int? = nil) -> TOMLEntry? {
        consumed.insert(Self.dotted(table, key, index))
        knownTables.insert(table)
        if let index { return document.tableArrays[table]?[index].entries[key] }
        return document.tables[table]?.entries[key]
    }

    func error(_ table: String, _ key: String, index: Int? = nil, line: Int?, _ problem: String, fix: String)
        -> BoardError
    {
        let tableLine = index.map { document.tableArrays[table]?[$0].line } ?? document.tables[table]?.line
        return BoardError(
            file: file, line: line ?? tableLine.flatMap { $0 == 0 ? nil : $0 },
            key: Self.dotted(table, key, index), problem: problem, fix: fix)
    }

    // MARK: Typed values

    mutating func string(_ table: String, _ key: String, index: Int? = nil, fix: String)
        throws(BoardError) -> String?
    {
        guard let entry = entry(table, key, index: index) else { return nil }
        guard case .string(let text) = entry.value, !text.isEmpty else {
            throw error(table, key, index: index, line: entry.line, "expected a non-empty string, found \(entry.value.description)", fix: fix)
        }
        return text
    }

    mutating func requiredString(_ table: String, _ key: String, index: Int? = nil, fix: String)
        throws(BoardError) -> String
    {
        guard let text = try string(table, key, index: index, fix: fix) else {
            throw error(table, key, index: index, line: nil, "missing", fix: fix)
        }
        return text
    }

    mutating func integer(_ table: String, _ key: String, in range: ClosedRange<Int>, fix: String)
        throws(BoardError) -> Int?
    {
        guard let entry = entry(table, key) else { return nil }
        guard case .integer(let number) = entry.value else {
            throw error(table, key, line: entry.line, "\(entry.value.description) is not a whole number from \(range.lowerBound) to \(range.upperBound)", fix: fix)
        }
        guard range.contains(number) else {
            throw error(table, key, line: entry.line, "\(entry.value.description) is out of range \(range.lowerBound)...\(range.upperBound)", fix: fix)
        }
        return number
    }

    mutating func number(_ table: String, _ key: String, in range: ClosedRange<Double>, fix: String) throws(BoardError) -> Double? {
        guard let entry = entry(table, key) else { return nil }
        switch entry.value {
        case .integer(let number) where range.contains(Double(number)): return Double(number)
        case .decimal(let number) where range.contains(number): return number
        default:
            throw error(
                table, key, line: entry.line,
                "expected a number from \(range.lowerBound) to \(range.upperBound), found \(entry.value.description)", fix: fix)
        }
    }

    /// A number within `range` at `key` of the `index`th `[[table]]`; required.
    mutating func number(_ table: String, _ key: String, index: Int, in range: ClosedRange<Double>, fix: String)
        throws(BoardError) -> Double
    {
        guard let entry = entry(table, key, index: index) else {
            throw error(table, key, index: index, line: nil, "missing", fix: fix)
        }
        let number: Double? =
            switch entry.value {
            case .integer(let number): Double(number)
            case .decimal(let number): number
            default: nil
            }
        guard let number, range.contains(number) else {
            throw error(
                table, key, index: index, line: entry.line,
                "\(entry.value.description) is not a number in \(range.lowerBound)...\(range.upperBound)", fix: fix)
        }
        return number
    }

    mutating func boolean(_ table: String, _ key: String, fix: String) throws(BoardError) -> Bool? {
        guard let entry = entry(table, key) else { return nil }
        guard case .boolean(let flag) = entry.value else {
            throw error(table, key, line: entry.line, "expected true or false, found \(entry.value.description)", fix: fix)
        }
        return flag
    }

    mutating func strings(_ table: String, _ key: String, fix: String) throws(BoardError) -> [String]? {
        guard let entry = entry(table, key) else { return nil }
        if case .string(let single) = entry.value { return [single] }
        guard case .array(let values) = entry.value else {
            throw error(table, key, line: entry.line, "expected a list of strings, found \(entry.value.description)", fix: fix)
        }
        var result: [String] = []
        for value in values {
            guard case .string(let text) = value else {
                throw error(table, key, line: entry.line, "expected a list of strings, found \(value.description) in it", fix: fix)
            }
            result.append(text)
        }
        return result
    }

    mutating func integers(_ table: String, _ key: String, fix: String) throws(BoardError) -> [Int]? {
        guard let entry = entry(table, key) else { return nil }
        guard case .array(let values) = entry.value else {
            throw error(table, key, line: entry.line, "expected a list of numbers, found \(entry.value.description)", fix: fix)
        }
        var result: [Int] = []
        for value in values {
            guard case .integer(let number) = value else {
                throw error(table, key, line: entry.line, "expected a list of numbers, found \(value.description) in it", fix: fix)
            }
            result.append(number)
        }
        return result
    }

    /// Throws for the first key in the file that nothing read.
    func rejectUnknownKeys() throws(BoardError) {
        let tables = document.tables.values.map { ($0, nil as Int?) }
            + document.tableArrays.values.flatMap { $0.enumerated().map { ($1, Optional($0)) } }
        for (table, index) in tables.sorted(by: { $0.0.line < $1.0.line }) {
            // The top level holds the keys before any table; every other table is asked for by name.
            guard table.name.isEmpty || knownTables.contains(table.name) else {
                throw BoardError(
                    file: file, line: table.line == 0 ? nil : table.line, key: table.name, problem: "unknown table",
                    fix: "check its name against docs/hardware.md, or remove it")
            }
            for key in table.keys where !consumed.contains(Self.dotted(table.name, key, index)) {
                throw error(
                    table.name, key, index: index, line: table.entries[key]?.line,
                    "unknown key", fix: "check its spelling against docs/hardware.md, or remove it")
            }
        }
    }

    static func dotted(_ table: String, _ key: String, _ index: Int? = nil) -> String {
        let base = table.isEmpty ? key : "\(table).\(key)"
        guard let index else { return base }
        return table.isEmpty ? base : "\(table)[\(index)].\(key)"
    }
}
