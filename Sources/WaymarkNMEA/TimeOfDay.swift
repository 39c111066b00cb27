/// A UTC time of day as a receiver printed it, to the nanosecond.
public struct TimeOfDay: Hashable, Sendable, Comparable {
    /// Hour, 0–23.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int
    /// Second, 0–60 (60 only during a leap second).
    public var second: Int
    /// Fraction of the second in nanoseconds.
    public var nanoseconds: Int32

    /// Creates a time of day.
    @inlinable
    public init(hour: Int, minute: Int, second: Int, nanoseconds: Int32 = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanoseconds = nanoseconds
    }

    /// Nanoseconds since midnight.
    @inlinable
    public var nanosecondsSinceMidnight: Int64 {
        Int64((hour * 60 + minute) * 60 + second) * 1_000_000_000 + Int64(nanoseconds)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.nanosecondsSinceMidnight < rhs.nanosecondsSinceMidnight
    }
}

/// A calendar date as a receiver printed it (`ddmmyy`, sometimes `ddmmyyyy`, or ZDA's fields).
public struct NMEADate: Hashable, Sendable {
    /// Day of the month, 1–31.
    public var day: Int
    /// Month, 1–12.
    public var month: Int
    /// The year as printed: two digits unless ``hasCentury``.
    public var year: Int
    /// Whether ``year`` carries its century (four digits).
    public var hasCentury: Bool

    /// Creates a date.
    @inlinable
    public init(day: Int, month: Int, year: Int, hasCentury: Bool) {
        self.day = day
        self.month = month
        self.year = year
        self.hasCentury = hasCentury
    }
}

/// A latitude or longitude exactly as printed (`ddmm.mmmm`), with its hemisphere.
public struct NMEACoordinate: Hashable, Sendable {
    /// The printed `ddmm.mmmm` (or `dddmm.mmmm`) value, always non-negative.
    public var printed: NMEADecimal
    /// Whether the hemisphere is south or west.
    public var isNegative: Bool

    /// Creates a coordinate from its printed value and hemisphere.
    @inlinable
    public init(printed: NMEADecimal, isNegative: Bool) {
        self.printed = printed
        self.isNegative = isNegative
    }

    /// Signed decimal degrees, the nearest `Double` to the exact value
    /// `dd + mm.mmmm / 60` (one correctly rounded division).
    @inlinable
    public var degrees: Double {
        let unit = NMEADecimal.powerOfTenInt(printed.scale)
        let wholeDegrees = printed.significand / (100 &* unit)
        let minutesScaled = printed.significand % (100 &* unit)
        let numerator = Double(wholeDegrees &* 60 &* unit &+ minutesScaled)
        let value = numerator / Double(60 &* unit)
        return isNegative ? -value : value
    }
}
