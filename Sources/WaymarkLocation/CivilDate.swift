/// A proleptic Gregorian calendar date in UTC.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, with its century.
    public var year: Int
    /// Month, 1–12.
    public var month: Int
    /// Day of the month, 1–31.
    public var day: Int

    /// Creates a date; no validation beyond what the fields' types allow.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (also `YYYY-M-D`, as some capture headers write it); `nil` for a
    /// date that does not exist or lies outside ``Timestamp/representableDates``.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]),
            let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard Timestamp.representableDates.contains(self) else { return nil }
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) {
        // Howard Hinnant's civil_from_days.
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// How many days the month has.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public var description: String {
        var bytes: [UInt8] = []
        appendDigits(year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.daysSinceEpoch < rhs.daysSinceEpoch
    }
}
