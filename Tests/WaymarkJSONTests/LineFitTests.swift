import Testing
import WaymarkJSON

/// `String.cut(toUTF8Bytes:)`: what error messages and status names use to fit a reply line.
@Suite("text cut to fit a line")
struct LineFitTests {
    @Test func textThatFitsIsKeptWhole() {
        #expect("abc".cut(toUTF8Bytes: 3) == "abc")
        #expect("".cut(toUTF8Bytes: 0) == "")
    }

    @Test func longTextIsCutOnACharacterAndEndsInAnEllipsis() {
        // "é" is 2 bytes, "👍🏽" one character of 8: no cut lands inside either.
        let text = String(repeating: "é👍🏽a", count: 50)
        for limit in 3..<80 {
            let cut = text.cut(toUTF8Bytes: limit)
            #expect(cut.utf8.count <= limit)
            #expect(cut.hasSuffix("…"))
            #expect(text.hasPrefix(String(cut.dropLast())))
            // As much as fits: the next character would not.
            let next = text.dropFirst(cut.count - 1).first!
            #expect(cut.utf8.count + next.utf8.count > limit)
        }
    }
}
