import Testing
import WaymarkLocation
import WaymarkNMEA

@Suite("Dates: century, week rollover, carry")
struct DateResolverTests {
    @Test("two-digit years land in 1980–2079 without a reference, near the reference with one")
    func century() {
        var resolver = DateResolver()
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 99, hasCentury: false), at: nil).year == 1999)
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 5, hasCentury: false), at: nil).year == 2005)
        var seeded = DateResolver(reference: CivilDate(year: 2091, month: 1, day: 1))
        #expect(seeded.resolve(NMEADate(day: 1, month: 1, year: 95, hasCentury: false), at: nil).year == 2095)
    }

    @Test("a date exactly 1024 weeks early is corrected against the newest date seen")
    func rolloverAgainstStream() {
        var resolver = DateResolver()
        let before = resolver.resolve(NMEADate(day: 7, month: 4, year: 19, hasCentury: false), at: nil)
        #expect(before == CivilDate(year: 2019, month: 4, day: 7))
        let after = resolver.resolve(NMEADate(day: 22, month: 8, year: 99, hasCentury: false), at: nil)
        #expect(after == CivilDate(year: 2019, month: 4, day: 7))
        #expect(resolver.rolloverCorrections == 1)
    }

    @Test("a date 1024 weeks before the seeded reference is corrected, one a few years before is not")
    func rolloverAgainstSeed() {
        var resolver = DateResolver(reference: CivilDate(year: 2026, month: 11, day: 22))
        #expect(resolver.resolve(NMEADate(day: 6, month: 4, year: 2007, hasCentury: true), at: nil)
            == CivilDate(year: 2026, month: 11, day: 20))
        var capture = DateResolver(reference: CivilDate(year: 2005, month: 3, day: 18))
        #expect(capture.resolve(NMEADate(day: 8, month: 10, year: 2, hasCentury: false), at: nil)
            == CivilDate(year: 2002, month: 10, day: 8))
    }

    @Test("the date is carried to time-only epochs and moves on at midnight")
    func carry() {
        var resolver = DateResolver()
        #expect(resolver.date(for: TimeOfDay(hour: 1, minute: 0, second: 0)) == nil)
        resolver.seed(CivilDate(year: 2010, month: 7, day: 7))
        #expect(resolver.date(for: TimeOfDay(hour: 23, minute: 59, second: 59)) == CivilDate(year: 2010, month: 7, day: 7))
        #expect(resolver.date(for: TimeOfDay(hour: 0, minute: 0, second: 0)) == CivilDate(year: 2010, month: 7, day: 8))
        #expect(resolver.date(for: TimeOfDay(hour: 0, minute: 0, second: 1)) == CivilDate(year: 2010, month: 7, day: 8))
    }

    @Test("civil dates and days since the epoch convert both ways")
    func civil() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(year: 2019, month: 4, day: 7).daysSinceEpoch - CivilDate(year: 1999, month: 8, day: 22).daysSinceEpoch == 7_168)
        #expect(CivilDate(parsing: "2017-1-9") == CivilDate(year: 2017, month: 1, day: 9))
        #expect(CivilDate(parsing: "2019-02-30") == nil)
        #expect(CivilDate(parsing: "yesterday") == nil)
    }

    @Test("timestamps print as gpsd does, rounded to the millisecond")
    func iso8601() {
        let time = Timestamp(date: CivilDate(year: 2019, month: 4, day: 6), hour: 12, minute: 0, second: 1, nanoseconds: 999_600_000)
        #expect(time.iso8601 == "2019-04-06T12:00:02.000Z")
        let early = Timestamp(date: CivilDate(year: 1969, month: 12, day: 31), hour: 23, minute: 59, second: 59, nanoseconds: 5_000_000)
        #expect(early.iso8601 == "1969-12-31T23:59:59.005Z")
    }
}
