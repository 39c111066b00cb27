package import WaymarkNMEA
package import WaymarkLocation

/// Turns the receiver's dates into full UTC dates: supplies the century of two-digit years,
/// corrects GPS week-rollover dates, and carries the last known date to epochs whose
/// sentences carry only a time of day (GGA-only receivers), across midnight.
///
/// Rollover rule: a receiver whose firmware counts the 10-bit GPS week from an old base
/// reports a date exactly 1024 weeks (7168 days) early, e.g. 1999-08-22 for 2019-04-07.
/// A date more than 512 weeks older than the reference (the newest of: the date the caller
/// seeded — a capture's `# Date:`, `--date`, the host clock — and the newest date the
/// receiver itself reported) is moved forward by whole 1024-week periods until it is not.
/// Dates merely a few years older than a capture header are left alone: headers often
/// record when a capture was submitted, not when it was made.
package struct DateResolver: Sendable {
    /// The GPS week-number period in days.
    package static let rolloverDays = 7_168
    /// How much older than the reference a date must be to count as rolled over.
    package static let rolloverThresholdDays = 3_584

    /// A date known to be close to the data: seeds the date and guards against rollover.
    package private(set) var reference: CivilDate?
    /// How many dates were corrected for a week rollover.
    package private(set) var rolloverCorrections = 0
    /// How many dates were refused: outside ``Timestamp/representableDates`` as printed, as
    /// seeded, or once corrected for a rollover.
    package private(set) var rejectedDates = 0
    private var lastDate: CivilDate?
    private var lastTimeOfDay: TimeOfDay?
    private var newestDate: CivilDate?

    /// Creates a resolver with an optional reference date.
    package init(reference: CivilDate? = nil) {
        self.reference = reference
    }

    /// Seeds the date for data that carries none (a capture's `# Date:` comment). The seed
    /// is also the rollover reference. A date outside ``Timestamp/representableDates`` is
    /// refused and counted in ``rejectedDates``.
    package mutating func seed(_ date: CivilDate) {
        guard Timestamp.representableDates.contains(date) else {
            rejectedDates += 1
            return
        }
        reference = date
        if lastDate == nil { lastDate = date }
    }

    /// Resolves a date a receiver printed together with the time of day it belongs to,
    /// and remembers it for later epochs; `nil` (counted in ``rejectedDates``, not remembered)
    /// when the result lies outside ``Timestamp/representableDates``.
    package mutating func resolve(_ printed: NMEADate, at time: TimeOfDay?) -> CivilDate? {
        var year = printed.year
        if !printed.hasCentury {
            year = Self.fullYear(twoDigits: printed.year, near: reference ?? newestDate)
        }
        let day = min(printed.day, CivilDate.daysIn(month: printed.month, year: year))
        var date = CivilDate(year: year, month: printed.month, day: day)
        if let anchor = [reference, newestDate].compactMap({ $0 }).max(),
            date.daysSinceEpoch < anchor.daysSinceEpoch - Self.rolloverThresholdDays
        {
            let periods = (anchor.daysSinceEpoch - Self.rolloverThresholdDays - date.daysSinceEpoch)
                / Self.rolloverDays + 1
            date = date.adding(days: periods * Self.rolloverDays)
            rolloverCorrections += 1
        }
        guard Timestamp.representableDates.contains(date) else {
            rejectedDates += 1
            return nil
        }
        lastDate = date
        lastTimeOfDay = time
        if newestDate.map({ date > $0 }) ?? true { newestDate = date }
        return date
    }

    /// The date for a time of day that came without one: the last known date, moved on a
    /// day if the time has wrapped past midnight since.
    package mutating func date(for time: TimeOfDay) -> CivilDate? {
        guard var date = lastDate else { return nil }
        if let previous = lastTimeOfDay,
            previous.nanosecondsSinceMidnight - time.nanosecondsSinceMidnight > 12 * 3_600 * 1_000_000_000
        {
            date = date.adding(days: 1)
            lastDate = date
        }
        lastTimeOfDay = time
        return date
    }

    /// The full year for a two-digit year: the one closest to `reference`, or, without a
    /// reference, 1980–2079 (GPS time began in 1980).
    static func fullYear(twoDigits year: Int, near reference: CivilDate?) -> Int {
        guard let reference else { return year >= 80 ? 1900 + year : 2000 + year }
        let candidate = reference.year - reference.year % 100 + year
        if candidate - reference.year > 50 { return candidate - 100 }
        if reference.year - candidate > 50 { return candidate + 100 }
        return candidate
    }
}
