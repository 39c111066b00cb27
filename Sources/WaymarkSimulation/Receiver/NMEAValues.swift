import WaymarkLocation
import WaymarkNMEA

// Conversions from the simulation's numbers to the printed values of NMEA fields.

extension NMEADecimal {
    /// `value` rounded to `scale` decimals.
    init(_ value: Double, scale: UInt8) {
        self.init(significand: Int64((value * NMEADecimal.powerOfTen(scale)).rounded()), scale: scale)
    }
}

extension NMEACoordinate {
    /// Signed decimal degrees printed as `ddmm.mmmmm` with `scale` decimals of minutes.
    init(degrees: Double, scale: UInt8) {
        let unit = NMEADecimal.powerOfTenInt(scale)
        let minutes = Int64((abs(degrees) * 60 * Double(unit)).rounded())
        let whole = minutes / (60 * unit)
        self.init(
            printed: NMEADecimal(significand: whole * 100 * unit + minutes % (60 * unit), scale: scale),
            isNegative: degrees < 0)
    }
}

extension Timestamp {
    /// The time of day, to the hundredth of a second, as receivers print it.
    var timeOfDay: TimeOfDay {
        let nanoseconds = nanosecondsOfDay
        let seconds = Int(nanoseconds / 1_000_000_000)
        let hundredths = (nanoseconds % 1_000_000_000) / 10_000_000 * 10_000_000
        return TimeOfDay(hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60, nanoseconds: Int32(hundredths))
    }

    /// The date with a two-digit year, as RMC prints it.
    var nmeaDate: NMEADate {
        let civil = date
        return NMEADate(day: civil.day, month: civil.month, year: civil.year % 100, hasCentury: false)
    }
}

extension Constellation {
    /// The talker of this constellation's own sentences (GSV, single-system GSA).
    var talker: Talker {
        self == .glonass ? .glonass : .gps
    }
}
