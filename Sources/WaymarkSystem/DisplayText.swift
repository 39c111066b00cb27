/// Text from a process, a device or a file made safe to show on a terminal or in a log: no
/// byte of it can move the cursor, recolour the screen, end a log line or reorder what
/// follows it.
package enum DisplayText {
    /// `text` with control characters written as `\u{…}` escapes and a backslash doubled: one
    /// line that reads back unambiguously (a status report's app, a policy's unit name).
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\\\"
            } else {
                append(scalar, to: &result, keepingLineBreaks: false)
            }
        }
        return result
    }

    /// `text` with control characters written as `\u{…}` escapes, line breaks too unless
    /// `keepingLineBreaks`: for a message that quotes untrusted text among the program's own
    /// (already-escaped text passes unchanged).
    package static func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result, keepingLineBreaks: keepingLineBreaks) }
        return result
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String, keepingLineBreaks: Bool) {
        if isControl(scalar), !(keepingLineBreaks && scalar == "\n") {
            result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    /// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the
    /// bidirectional embeddings, overrides and isolates (which reorder the text after them).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
