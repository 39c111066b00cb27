import Testing
import WaymarkJSON

@Suite("JSON parser: malformed input")
struct MalformedTests {
    @Test(arguments: [
        ("", "byte 0: expected a value, found the end of the text"),
        ("{", "byte 1: expected a member name (a string), found the end of the text"),
        (#"{"a" 1}"#, "byte 5: expected ':' after a member name, found '1'"),
        (#"{"a":1 "b":2}"#, "byte 7: expected ',' or '}' after an object member, found '\"'"),
        (#"{"a":1,}"#, "byte 7: expected a member name (a string), found '}'"),
        ("[1,]", "byte 3: expected a value, found ']'"),
        ("[1 2]", "byte 3: expected ',' or ']' after an array element, found '2'"),
        ("01", "byte 1: expected no leading zero in a number, found '1'"),
        ("1.", "byte 2: expected a digit after the decimal point, found the end of the text"),
        ("1e", "byte 2: expected a digit in the exponent, found the end of the text"),
        ("-", "byte 1: expected a digit in the number, found the end of the text"),
        ("+1", "byte 0: expected a value, found '+'"),
        ("1e999", "byte 0: number 1e999 is out of range"),
        ("tru", "byte 0: expected true"),
        ("nul", "byte 0: expected null"),
        ("1 2", "byte 2: expected the end of the text after the value, found '2'"),
        ("\"abc", "byte 4: expected '\"' to close the string, found the end of the text"),
        ("\"a\tb\"", "byte 2: expected a control character in a string to be escaped, found byte 0x09"),
        (#""\x""#, "byte 2: expected one of \" \\ / b f n r t u after '\\', found 'x'"),
        (#""\u12G4""#, "byte 5: expected four hexadecimal digits after \\u, found 'G'"),
        (#""\ud83d""#, "byte 1: expected a low surrogate \\uDC00-\\uDFFF after a high surrogate"),
        (#""\ud83d\u0041""#, "byte 7: expected a low surrogate \\uDC00-\\uDFFF after a high surrogate"),
        (#""\ude00""#, "byte 1: a low surrogate without a high surrogate before it"),
        (#"{"a":1,"a":2}"#, "byte 7: duplicate member name \"a\""),
        ("// comment\n1", "byte 0: expected a value, found '/'"),
    ])
    func rejected(text: String, description: String) {
        let error = #expect(throws: JSONError.self) { try JSONParser().parse(text) }
        #expect(error?.description == description)
    }

    @Test func invalidUTF8IsRejected() {
        let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]
        let error = #expect(throws: JSONError.self) { try JSONParser().parse(bytes) }
        #expect(error?.description == "byte 0: string is not valid UTF-8")
    }

    @Test func depthIsLimited() throws {
        let parser = JSONParser(maximumDepth: 3)
        #expect(try parser.parse("[[[1]]]") == .array([.array([.array([.integer(1)])])]))
        let error = #expect(throws: JSONError.self) { try parser.parse(#"[[[{"a":1}]]]"#) }
        #expect(error?.description == "byte 3: nesting deeper than 3 levels, found '{'")
        // Far beyond the limit: refused, not a stack overflow.
        let deep = String(repeating: "[", count: 200_000)
        #expect(throws: JSONError.self) { try JSONParser().parse(deep) }
    }

    @Test func lengthIsLimited() {
        let parser = JSONParser(maximumLength: 8)
        let error = #expect(throws: JSONError.self) { try parser.parse("\"123456789\"") }
        #expect(error?.description == "byte 8: text longer than 8 bytes")
    }
}
