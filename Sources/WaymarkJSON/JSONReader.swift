/// The recursive-descent reader behind ``JSONParser``: one pass over the bytes.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The whole text: one value surrounded by optional whitespace.
    mutating func document() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("expected the end of the text after the value") }
        return value
    }

    private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard let byte = peek() else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func object(depth: Int) throws(JSONError) -> JSONObject {
        try enter(depth)
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return object
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name (a string)") }
            let keyOffset = index
            let key = try string()
            guard object[key] == nil else {
                throw JSONError(offset: keyOffset, message: "duplicate member name \"\(key)\"")
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after a member name")
            skipWhitespace()
            object[key] = try value(depth: depth)
            skipWhitespace()
            if try closes(UInt8(ascii: "}"), "expected ',' or '}' after an object member") { return object }
            skipWhitespace()
        }
    }

    private mutating func array(depth: Int) throws(JSONError) -> [JSONValue] {
        try enter(depth)
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return array
        }
        while true {
            array.append(try value(depth: depth))
            skipWhitespace()
            if try closes(UInt8(ascii: "]"), "expected ',' or ']' after an array element") { return array }
            skipWhitespace()
        }
    }

    /// Consumes the opening bracket of a container at `depth`, refusing one too deep.
    private mutating func enter(_ depth: Int) throws(JSONError) {
        guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
        index += 1
    }

    /// After a member or element: consumes `closer` (true) or a comma (false).
    private mutating func closes(_ closer: UInt8, _ expectation: String) throws(JSONError) -> Bool {
        switch peek() {
        case closer:
            index += 1
            return true
        case UInt8(ascii: ","):
            index += 1
            return false
        default:
            throw failure(expectation)
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let start = index
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard peek() == byte else {
                throw JSONError(offset: start, message: "expected \(word)")
            }
            index += 1
        }
    }

    // MARK: Numbers

    private mutating func number() throws(JSONError) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw failure("expected no leading zero in a number") }
        } else {
            try digits("expected a digit in the number")
        }
        var isIntegral = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            isIntegral = false
            try digits("expected a digit after the decimal point")
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            isIntegral = false
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try digits("expected a digit in the exponent")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isIntegral, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw JSONError(offset: start, message: "number \(text) is out of range")
        }
        return .double(double)
    }

    private mutating func digits(_ expectation: String) throws(JSONError) {
        guard let first = peek(), isDigit(first) else { throw failure(expectation) }
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Strings

    private mutating func string() throws(JSONError) -> String {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw failure("expected '\"' to close the string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw JSONError(offset: start, message: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &utf8)
            case ..<0x20:
                throw failure("expected a control character in a string to be escaped")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONError) {
        guard let byte = peek() else { throw failure("expected an escape sequence") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): utf8.append(contentsOf: String(try unicodeEscape()).utf8)
        default:
            index -= 1
            throw failure("expected one of \" \\ / b f n r t u after '\\'")
        }
    }

    /// The scalar of `\uXXXX` (the `\u` consumed), joining a surrogate pair.
    private mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let start = index - 2
        let unit = try hexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            guard peek() == UInt8(ascii: "\\"), peek(at: index + 1) == UInt8(ascii: "u") else {
                throw JSONError(offset: start, message: "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONError(offset: index - 6, message: "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate")
            }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw JSONError(offset: start, message: "a low surrogate without a high surrogate before it")
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexDigit(byte) else {
                throw failure("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Bytes

    private func peek() -> UInt8? {
        peek(at: index)
    }

    private func peek(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ expectation: String) throws(JSONError) {
        guard peek() == byte else { throw failure(expectation) }
        index += 1
    }

    /// An error at the current byte: `expectation`, then what was found there.
    private func failure(_ expectation: String) -> JSONError {
        JSONError(offset: index, message: "\(expectation), found \(describe(peek()))")
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the text" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(byte < 0x10 ? "0" : "")\(hex)"
    }
}
