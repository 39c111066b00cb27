import Testing
import WaymarkBoard

@Suite struct TOMLParserTests {
    @Test func parsesTablesArraysAndValues() throws {
        let document = try TOMLParser.parse(
            """
            # comment
            name = "a \\"quoted\\" name"   # trailing comment
            [uart]
            baud = 115_200
            address = 0x53
            ratio = 9.5
            on = true
            list = [
              "one",  # first
              "two",
            ]
            [gpio.enable]
            line = 17
            [[wiring]]
            part = "x"
            [[wiring]]
            part = "y"
            """)
        #expect(document.tables[""]?.entries["name"]?.value == .string("a \"quoted\" name"))
        #expect(document.tables["uart"]?.entries["baud"]?.value == .integer(115_200))
        #expect(document.tables["uart"]?.entries["address"]?.value == .integer(0x53))
        #expect(document.tables["uart"]?.entries["ratio"]?.value == .decimal(9.5))
        #expect(document.tables["uart"]?.entries["on"]?.value == .boolean(true))
        #expect(document.tables["uart"]?.entries["list"]?.value == .array([.string("one"), .string("two")]))
        #expect(document.tables["uart"]?.entries["list"]?.line == 8)
        #expect(document.tables["gpio.enable"]?.entries["line"]?.value == .integer(17))
        #expect(document.tableArrays["wiring"]?.map { $0.entries["part"]?.value } == [.string("x"), .string("y")])
    }

    @Test("floats with an exponent are TOML's, read as numbers (1e8 was refused as an unquoted string)")
    func exponents() throws {
        let document = try TOMLParser.parse("a = 1e8\nb = 6.5E-3\nc = -2.5e+2\nd = 3.0")
        let values = ["a", "b", "c", "d"].map { document.tables[""]?.entries[$0]?.value }
        #expect(values == [.decimal(1e8), .decimal(6.5e-3), .decimal(-250), .decimal(3)])
    }

    @Test(arguments: [
        ("key = {a = 1}", 1, "inline tables are not supported; use a [table]"),
        ("a = 1\nb = fast", 2, "'fast' is not a value (strings need quotes)"),
        ("a = \"open", 1, "unterminated string"),
        ("a = 1\na = 2", 2, "key 'a' is set twice"),
        ("[t]\n[t]", 2, "table [t] is defined twice"),
        ("a = 1 2", 1, "unexpected text after the value"),
        ("a = [[[[[[[[[1]]]]]]]]]", 1, "arrays nested deeper than 8 levels"),
        ("a = " + String(repeating: "[", count: 1_000_000), 1, "arrays nested deeper than 8 levels"),
        // TOML's infinities and NaN are valid TOML, but no quantity on a board (they were called unquoted strings).
        ("a = inf", 1, "'inf' is not a finite number"),
        ("a = -inf", 1, "'-inf' is not a finite number"),
        ("a = nan", 1, "'nan' is not a finite number"),
        ("a = 1e400", 1, "'1e400' is beyond the largest number"),
        ("a = 0x1p3", 1, "'0x1p3' is not a value (strings need quotes)"),
    ])
    func reportsTheLineAndProblem(text: String, line: Int, message: String) {
        #expect(throws: TOMLParser.SyntaxError(line: line, message: message)) { try TOMLParser.parse(text) }
    }
}
