/// A UTC instant: nanoseconds since 1970-01-01T00:00:00Z, without leap seconds (POSIX time).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch.
    public var nanosecondsSinceEpoch: Int64

    /// Creates an instant from nanoseconds since the Unix epoch.
    @inlinable
    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// The dates whose every instant fits in 64-bit nanoseconds since the epoch (about
    /// 1677-09-21 to 2262-04-11, trimmed to whole years). A date outside comes from a broken
    /// receiver or file and is refused, never converted.
    public static let representableDates = CivilDate(year: 1678, month: 1, day: 1)...CivilDate(year: 2261, month: 12, day: 31)

    /// Creates an instant from a civil UTC date and a time of day; `nil` when the date is
    /// outside ``representableDates`` or a field is out of its range (a leap second, 60, is
    /// allowed).
    public init?(date: CivilDate, hour: Int, minute: Int, second: Int, nanoseconds: Int64) {
        guard Self.representableDates.contains(date), (0..<24).contains(hour), (0..<60).contains(minute),
            (0...60).contains(second), (0..<1_000_000_000).contains(nanoseconds)
        else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
        self.nanosecondsSinceEpoch = seconds * 1_000_000_000 + nanoseconds
    }

    /// The civil UTC date.
    public var date: CivilDate {
        CivilDate(daysSinceEpoch: Int(nanosecondsSinceEpoch.floorDivided(by: 86_400_000_000_000)))
    }

    /// Nanoseconds since midnight of ``date``.
    public var nanosecondsOfDay: Int64 {
        nanosecondsSinceEpoch - Int64(date.daysSinceEpoch) * 86_400_000_000_000
    }

    /// Seconds since the Unix epoch as a `Double` (for arithmetic, not for display).
    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1e9 }

    /// This instant moved by a signed number of nanoseconds.
    public func adding(nanoseconds: Int64) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch + nanoseconds)
    }

    /// ISO 8601 with milliseconds, as gpsd prints it: `2019-04-06T12:00:01.000Z`.
    /// Sub-millisecond digits are rounded to the nearest millisecond.
    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the ISO 8601 form to a byte buffer (no intermediate `String`).
    public func appendISO8601(to bytes: inout [UInt8]) {
        let rounded = Timestamp(nanosecondsSinceEpoch: (nanosecondsSinceEpoch + 500_000).floorDivided(by: 1_000_000) * 1_000_000)
        let date = rounded.date
        let dayNanoseconds = rounded.nanosecondsOfDay
        let totalSeconds = Int(dayNanoseconds / 1_000_000_000)
        let milliseconds = Int(dayNanoseconds % 1_000_000_000 / 1_000_000)
        appendDigits(date.year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.day, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(totalSeconds / 3_600, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(totalSeconds / 60 % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(totalSeconds % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(milliseconds, count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    public var description: String { iso8601 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

/// Appends a non-negative integer as exactly `count` decimal digits (zero-padded).
func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var remaining = value
    while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
        remaining %= divisor
        divisor /= 10
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
