/// Parses the TOML subset board files use: comments, `[table]` and `[[array-of-tables]]`
/// headers with dotted names, and `key = value` lines with the values of ``TOMLValue``.
/// Inline tables, dotted keys, literal and multi-line strings, dates are not supported and are
/// reported as errors with their line.
package struct TOMLParser {
    /// A syntax error: the 1-based line and what is wrong there.
    package struct SyntaxError: Error, Hashable, Sendable {
        /// The line the error is on.
        package var line: Int
        /// What is wrong.
        package var message: String

        /// Creates an error.
        package init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    /// How deeply arrays may nest: board files need two levels at most, and a bound keeps a
    /// hostile `[[[[…` from exhausting the stack.
    package static let maximumArrayDepth = 8

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var arrayDepth = 0

    /// Parses `text`.
    package static func parse(_ text: String) throws(SyntaxError) -> TOMLDocument {
        var parser = TOMLParser(bytes: Array(text.utf8))
        return try parser.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func document() throws(SyntaxError) -> TOMLDocument {
        var document = TOMLDocument()
        var current = TOMLTable(name: "", line: 0)
        var currentIsArray = false
        func store(_ table: TOMLTable, asArray: Bool, in document: inout TOMLDocument) {
            if asArray { document.tableArrays[table.name, default: []].append(table) }
            else { document.tables[table.name] = table }
        }
        while true {
            skipBlank()
            guard let byte = peek() else { break }
            if byte == UInt8(ascii: "[") {
                store(current, asArray: currentIsArray, in: &document)
                let (name, isArray) = try header()
                if !isArray, document.tables[name] != nil {
                    throw SyntaxError(line: line, message: "table [\(name)] is defined twice")
                }
                current = TOMLTable(name: name, line: line)
                currentIsArray = isArray
            } else {
                let key = try bareKey()
                skipSpaces()
                try expect("=")
                skipSpaces()
                let entryLine = line
                let value = try self.value()
                if current.entries[key] != nil {
                    throw SyntaxError(line: entryLine, message: "key '\(key)' is set twice")
                }
                current.entries[key] = TOMLEntry(value: value, line: entryLine)
                current.keys.append(key)
            }
            try endOfLine()
        }
        store(current, asArray: currentIsArray, in: &document)
        return document
    }

    // MARK: Lines

    private mutating func header() throws(SyntaxError) -> (String, Bool) {
        try expect("[")
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { index += 1 }
        var parts: [String] = []
        repeat {
            skipSpaces()
            parts.append(try bareKey())
            skipSpaces()
        } while consume(".")
        try expect("]")
        if isArray { try expect("]") }
        return (parts.joined(separator: "."), isArray)
    }

    private mutating func bareKey() throws(SyntaxError) -> String {
        let start = index
        while let byte = peek(), Self.isKeyByte(byte) { index += 1 }
        guard index > start else { throw error("expected a key (letters, digits, '-' or '_')") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func endOfLine() throws(SyntaxError) {
        skipSpaces()
        if peek() == UInt8(ascii: "#") { skipComment() }
        guard let byte = peek() else { return }
        guard byte == 0x0A || byte == 0x0D else { throw error("unexpected text after the value") }
    }

    // MARK: Values

    private mutating func value() throws(SyntaxError) -> TOMLValue {
        guard let byte = peek() else { throw error("expected a value") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "{"): throw error("inline tables are not supported; use a [table]")
        case UInt8(ascii: "'"): throw error("literal strings are not supported; use \"…\"")
        default:
            if let flag = boolean() { return flag }
            return try number()
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        try expect("\"")
        var text: [UInt8] = []
        while let byte = peek(), byte != 0x0A {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(escaped)
                default: throw error("unsupported escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
            default: text.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func array() throws(SyntaxError) -> [TOMLValue] {
        guard arrayDepth < Self.maximumArrayDepth else {
            throw error("arrays nested deeper than \(Self.maximumArrayDepth) levels")
        }
        arrayDepth += 1
        defer { arrayDepth -= 1 }
        try expect("[")
        var values: [TOMLValue] = []
        while true {
            skipBlank()
            if consume("]") { return values }
            values.append(try value())
            skipBlank()
            if consume("]") { return values }
            try expect(",")
        }
    }

    private mutating func boolean() -> TOMLValue? {
        for (word, result) in [("true", true), ("false", false)] where matches(word) {
            index += word.utf8.count
            return .boolean(result)
        }
        return nil
    }

    private mutating func number() throws(SyntaxError) -> TOMLValue {
        let start = index
        while let byte = peek(), Self.isKeyByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self).filter { $0 != "_" }
        if text.hasPrefix("0x"), let hex = Int(text.dropFirst(2), radix: 16) { return .integer(hex) }
        if let integer = Int(text) { return .integer(integer) }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        if !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) {
            index = start
            throw error("'\(text)' is beyond the largest whole number, \(Int.max)")
        }
        // TOML's floats: a fraction, an exponent or both (`9.5`, `1e8`, `6.5E-3`), finite:
        // no quantity on a board is infinite or not a number.
        let isFloat = text.allSatisfy { "0123456789+-.eE".contains($0) } && text.contains(where: \.isNumber)
            && text.contains(where: { ".eE".contains($0) })
        if isFloat, let decimal = Double(text) {
            if decimal.isFinite { return .decimal(decimal) }
            index = start
            throw error("'\(text)' is beyond the largest number")
        }
        index = start
        if ["inf", "+inf", "-inf", "nan", "+nan", "-nan"].contains(text) { throw error("'\(text)' is not a finite number") }
        throw error(text.isEmpty ? "expected a value" : "'\(text)' is not a value (strings need quotes)")
    }

    // MARK: Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func matches(_ word: String) -> Bool {
        bytes[index...].starts(with: word.utf8)
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(SyntaxError) {
        guard consume(character) else { throw error("expected '\(character)'") }
    }

    private mutating func skipSpaces() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 { index += 1 }
    }

    private mutating func skipComment() {
        while let byte = peek(), byte != 0x0A { index += 1 }
    }

    /// Skips spaces, line breaks and comments.
    private mutating func skipBlank() {
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
            case UInt8(ascii: "#"): skipComment()
            default: return
            }
        }
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(line: line, message: message)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
