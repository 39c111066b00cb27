import Testing
import WaymarkSystem

@Suite("text from files and devices shown safely")
struct DisplayTextTests {
    @Test("controls, line separators and bidirectional overrides become escapes; other text stays")
    func controls() {
        let hostile = "a\u{1b}[2J\u{7}b\u{85}c\u{2028}d\u{202e}gnp.exe\u{2066}é✓"
        #expect(DisplayText.printable(hostile) == #"a\u{1b}[2J\u{7}b\u{85}c\u{2028}d\u{202e}gnp.exe\u{2066}é✓"#)
        #expect(DisplayText.printable("one\ntwo") == #"one\u{a}two"#)
        #expect(DisplayText.printable("one\ntwo\r", keepingLineBreaks: true) == "one\ntwo\\u{d}")
    }

    @Test("escaped doubles a backslash so that it reads back unambiguously; printable leaves escaped text as it is")
    func backslashes() {
        #expect(DisplayText.escaped(#"a\u{1b}"#) == #"a\\u{1b}"#)
        #expect(DisplayText.escaped("a\u{1b}") == #"a\u{1b}"#)
        let once = DisplayText.escaped("unit\u{9}x\\y")
        #expect(DisplayText.printable(once) == once)
    }
}
