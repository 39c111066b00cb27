import WaymarkLocation

extension Timestamp {
    /// Appends the instant in ISO 8601, UTC, with as many fractional digits as it needs (3, 6
    /// or 9), so it reads back exactly: `2024-06-01T12:00:00.125Z`,
    /// `2024-06-01T12:00:00.123456789Z`.
    func appendProtocolText(to bytes: inout [UInt8]) {
        let date = date
        let nanoseconds = nanosecondsOfDay
        let seconds = Int(nanoseconds / 1_000_000_000)
        var fraction = Int(nanoseconds % 1_000_000_000)
        var digits = 9
        while digits > 3 && fraction % 1_000 == 0 {
            fraction /= 1_000
            digits -= 3
        }
        func field(_ value: Int, _ count: Int, then separator: Unicode.Scalar) {
            appendPadded(value, count, to: &bytes)
            bytes.append(UInt8(ascii: separator))
        }
        field(date.year, 4, then: "-")
        field(date.month, 2, then: "-")
        field(date.day, 2, then: "T")
        field(seconds / 3_600, 2, then: ":")
        field(seconds / 60 % 60, 2, then: ":")
        field(seconds % 60, 2, then: ".")
        field(fraction, digits, then: "Z")
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (UTC, up to 9 fractional digits).
    init?(protocolText text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
            let date = CivilDate(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]), hour < 24, minute < 60, second < 60
        else { return nil }
        var nanoseconds: Int64 = 0
        let rest = bytes[19..<(bytes.count - 1)]
        if !rest.isEmpty {
            let digits = rest.dropFirst()
            guard rest.first == UInt8(ascii: "."), (1...9).contains(digits.count), let fraction = number(digits)
            else { return nil }
            nanoseconds = Int64(fraction)
            for _ in digits.count..<9 { nanoseconds *= 10 }
        }
        self.init(date: date, hour: hour, minute: minute, second: second, nanoseconds: nanoseconds)
    }
}

/// Appends `value` (not negative) in decimal, zero-padded to at least `count` digits.
private func appendPadded(_ value: Int, _ count: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    while value / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
    }
}

/// The decimal number the ASCII digits spell, or `nil` if any byte is not a digit.
private func number(_ digits: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
}
