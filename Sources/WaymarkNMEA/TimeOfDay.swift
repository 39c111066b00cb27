/// A UTC time of day as a receiver printed it, to the nanosecond.
public struct TimeOfDay: Hashable, Sendable, Comparable {
    // Compact storage keeps parsed sentences small, which keeps them cheap to move.
    @usableFromInline var storedHour: UInt8
    @usableFromInline var storedMinute: UInt8
    @usableFromInline var storedSecond: UInt8
    /// Fraction of the second in nanoseconds.
    public var nanoseconds: Int32

    /// Creates a time of day.
    @inlinable
    public init(hour: Int, minute: Int, second: Int, nanoseconds: Int32 = 0) {
        self.init(hour: UInt8(truncatingIfNeeded: hour), minute: UInt8(truncatingIfNeeded: minute),
                  second: UInt8(truncatingIfNeeded: second), nanoseconds: nanoseconds)
    }

    @usableFromInline
    init(hour: UInt8, minute: UInt8, second: UInt8, nanoseconds: Int32) {
        storedHour = hour
        storedMinute = minute
        storedSecond = second
        self.nanoseconds = nanoseconds
    }

    /// Hour, 0–23.
    @inlinable
    public var hour: Int { Int(storedHour) }
    /// Minute, 0–59.
    @inlinable
    public var minute: Int { Int(storedMinute) }
    /// Second, 0–60 (60 only during a leap second).
    @inlinable
    public var second: Int { Int(storedSecond) }

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
    @usableFromInline var storedDay: UInt8
    @usableFromInline var storedMonth: UInt8
    @usableFromInline var storedYear: UInt16
    /// Whether ``year`` carries its century (four digits).
    public var hasCentury: Bool

    /// Creates a date.
    @inlinable
    public init(day: Int, month: Int, year: Int, hasCentury: Bool) {
        self.init(day: UInt8(truncatingIfNeeded: day), month: UInt8(truncatingIfNeeded: month),
                  year: UInt16(truncatingIfNeeded: year), hasCentury: hasCentury)
    }

    @usableFromInline
    init(day: UInt8, month: UInt8, year: UInt16, hasCentury: Bool) {
        storedDay = day
        storedMonth = month
        storedYear = year
        self.hasCentury = hasCentury
    }

    /// Day of the month, 1–31.
    @inlinable
    public var day: Int { Int(storedDay) }
    /// Month, 1–12.
    @inlinable
    public var month: Int { Int(storedMonth) }
    /// The year as printed: two digits unless ``hasCentury``.
    @inlinable
    public var year: Int { Int(storedYear) }
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
