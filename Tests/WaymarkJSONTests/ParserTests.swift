import Testing
import WaymarkJSON

@Suite("JSON parser: values")
struct ParserTests {
    let parser = JSONParser()

    @Test func scalars() throws {
        #expect(try parser.parse("null") == .null)
        #expect(try parser.parse(" true ") == .bool(true))
        #expect(try parser.parse("false") == .bool(false))
        #expect(try parser.parse("\"hi\"") == .string("hi"))
    }

    @Test func integersAreExactAndOtherNumbersAreDoubles() throws {
        #expect(try parser.parse("0") == .integer(0))
        #expect(try parser.parse("-0") == .integer(0))
        #expect(try parser.parse("9223372036854775807") == .integer(.max))
        #expect(try parser.parse("-9223372036854775808") == .integer(.min))
        #expect(try parser.parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try parser.parse("1.5") == .double(1.5))
        #expect(try parser.parse("-2.5e-3") == .double(-0.0025))
        #expect(try parser.parse("2E3") == .double(2000))
        #expect(try parser.parse("2E3").int64Value == nil)
        #expect(try parser.parse("1.0").int64Value == nil)
        #expect(try parser.parse("-12").int64Value == -12)
        #expect(try parser.parse("2.5").int64Value == nil)
        #expect(try parser.parse("7").doubleValue == 7)
    }

    @Test func doublesRoundTripThroughTheWriter() throws {
        let values: [Double] = [0.1, -33.856784412345678, 151.2131080001, 1e-7, 6.02214076e23, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for value in values {
            var buffer = JSONBuffer()
            buffer.number(value)
            let parsed = try parser.parse(buffer.bytes)
            #expect(parsed.doubleValue?.bitPattern == value.bitPattern, "\(value)")
        }
    }

    @Test func escapes() throws {
        #expect(try parser.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parser.parse(#""\u00e9\u20AC""#) == .string("é€"))
        #expect(try parser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parser.parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parser.parse("\"😀 raw\"") == .string("😀 raw"))
    }

    @Test func containersKeepMemberOrder() throws {
        let value = try parser.parse(#" { "b" : [1, 2.5, "x", null, {}], "a": {"c": []} } "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == .array([.integer(1), .double(2.5), .string("x"), .null, .object(JSONObject())]))
        #expect(object["a"]?.objectValue?["c"] == .array([]))
    }

    @Test func largeObjectsKeepOrderAndEqualityWithTheirIndex() throws {
        var large = JSONObject()
        for number in 0..<40 { large["k\(number)"] = .integer(Int64(number)) }
        large["k3"] = .string("replaced")
        for number in stride(from: 0, to: 40, by: 2) where number != 30 { large["k\(number)"] = nil }
        var small = JSONObject()
        for number in stride(from: 1, to: 40, by: 2) { small["k\(number)"] = number == 3 ? .string("replaced") : .integer(Int64(number)) }
        small["k30"] = .integer(30)
        #expect(large.keys == (0..<40).filter { $0 % 2 == 1 || $0 == 30 }.map { "k\($0)" })
        #expect(large.count == 21 && large["k30"] == .integer(30) && large["k3"] == .string("replaced") && large["k4"] == nil)
        // Same members in another order: not equal (order is part of an object); in the same order: equal, same hash.
        var reordered = JSONObject()
        for key in large.keys { reordered[key] = large[key] }
        #expect(reordered == large && reordered.hashValue == large.hashValue && small != large)
        // A peer's object with many members parses in linear time and duplicates are still refused.
        let members = (0..<20_000).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        let parsed = try #require(try parser.parse("{" + members + "}").objectValue)
        #expect(parsed.count == 20_000 && parsed["m19999"] == .integer(19_999))
        #expect(throws: JSONError.self) { try parser.parse("{" + members + ",\"m7\":1}") }
    }

    @Test func writerAndParserRoundTrip() throws {
        let text = #"{"id":1,"op":"hello","s":"tab\there \"q\" \u0001 é😀","n":[-1,0.25,1e-05,true,false,null],"o":{}}"#
        let value = try parser.parse(text)
        #expect(try parser.parse(value.jsonText) == value)
        #expect(value.jsonText == text)
    }
}
