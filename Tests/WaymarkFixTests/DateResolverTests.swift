import Testing
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA

@Suite("Dates: century, week rollover, carry")
struct DateResolverTests {
    @Test("two-digit years land in 1980–2079 without a reference, near the reference with one")
    func century() {
        var resolver = DateResolver()
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 99, hasCentury: false), at: nil)?.year == 1999)
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 5, hasCentury: false), at: nil)?.year == 2005)
        var seeded = DateResolver(reference: CivilDate(year: 2091, month: 1, day: 1))
        #expect(seeded.resolve(NMEADate(day: 1, month: 1, year: 95, hasCentury: false), at: nil)?.year == 2095)
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
        let time = Timestamp(date: CivilDate(year: 2019, month: 4, day: 6), hour: 12, minute: 0, second: 1, nanoseconds: 999_600_000)!
        #expect(time.iso8601 == "2019-04-06T12:00:02.000Z")
        let early = Timestamp(date: CivilDate(year: 1969, month: 12, day: 31), hour: 23, minute: 59, second: 59, nanoseconds: 5_000_000)!
        #expect(early.iso8601 == "1969-12-31T23:59:59.005Z")
    }

    @Test("dates outside the representable range are refused, never converted (a year 9999 ZDA trapped)")
    func outOfRange() {
        var resolver = DateResolver()
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 9_999, hasCentury: true), at: nil) == nil)
        #expect(resolver.resolve(NMEADate(day: 1, month: 1, year: 999_999_999, hasCentury: true), at: nil) == nil)
        #expect(resolver.rejectedDates == 2)
        #expect(resolver.date(for: TimeOfDay(hour: 1, minute: 0, second: 0)) == nil)
        resolver.seed(CivilDate(year: 9_999, month: 12, day: 31))
        #expect(resolver.reference == nil && resolver.rejectedDates == 3)
        // A valid reference near the end of the range cannot push a rolled-over date past it.
        var late = DateResolver(reference: CivilDate(year: 2261, month: 12, day: 1))
        #expect(late.resolve(NMEADate(day: 1, month: 1, year: 2250, hasCentury: true), at: nil) == nil)
        #expect(CivilDate(parsing: "9999-12-31") == nil)
        #expect(CivilDate(parsing: "0001-01-01") == nil)
        #expect(CivilDate(parsing: "2261-12-31") == Timestamp.representableDates.upperBound)
        #expect(Timestamp(date: CivilDate(year: 9_999, month: 1, day: 1), hour: 0, minute: 0, second: 0, nanoseconds: 0) == nil)
        #expect(Timestamp(date: CivilDate(year: 2019, month: 1, day: 1), hour: 24, minute: 0, second: 0, nanoseconds: 0) == nil)
        #expect(Timestamp(date: Timestamp.representableDates.upperBound, hour: 23, minute: 59, second: 60, nanoseconds: 999_999_999) != nil)
        #expect(Timestamp(date: Timestamp.representableDates.lowerBound, hour: 0, minute: 0, second: 0, nanoseconds: 0) != nil)
    }

    @Test("dates out of range from a receiver or a capture reach no timestamp and trap nowhere")
    func outOfRangeThroughTheDecoder() {
        let zda = withChecksum("$GPZDA,120000.00,01,01,9999,00,00")
        let gga = withChecksum("$GPGGA,120000.00,4717.11399,N,00833.91590,E,1,08,1.0,499.6,M,48.0,M,,")
        let (fixes, decoder) = decodeCapture(Array((zda + gga).utf8))
        #expect(fixes.count == 1 && fixes[0].time == nil && fixes[0].latitude != nil)
        #expect(decoder.assembler.dates.rejectedDates == 1)
        let commented = decodeCapture(Array(("# Date: 9999-12-31\n" + gga).utf8))
        #expect(commented.fixes.count == 1 && commented.fixes[0].time == nil)
    }

    @Test("a time-only stream that wraps midnight for centuries stops stamping at the end of the range")
    func carryPastTheRange() {
        var capture = "# Date: 2261-12-01\n"
        for _ in 0..<200 {
            for time in ["230000", "000000", "120000"] {
                capture += withChecksum("$GPGGA,\(time).00,4717.11399,N,00833.91590,E,1,08,1.0,499.6,M,48.0,M,,")
            }
        }
        let (fixes, _) = decodeCapture(Array(capture.utf8))
        #expect(fixes.count == 600)
        #expect(fixes.first?.time?.date == CivilDate(year: 2261, month: 12, day: 1))
        #expect(fixes.last?.time == nil)
    }
}
