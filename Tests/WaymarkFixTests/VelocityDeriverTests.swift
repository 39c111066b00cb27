import Foundation
import Testing
import WaymarkFix
import WaymarkLocation

/// NMEA for a receiver moving in a straight line, generated from its true track.
struct StraightTrack {
    var latitude = 52.0
    var longitude = 4.5
    /// Metres per second.
    var speed: Double
    /// Degrees from true north.
    var course: Double

    /// The position `seconds` after the start (on a sphere of the local radii, which is what
    /// any derivation over a few metres must reproduce).
    func position(after seconds: Double) -> (latitude: Double, longitude: Double) {
        let distance = speed * seconds
        let north = distance * cos(course * .pi / 180)
        let east = distance * sin(course * .pi / 180)
        let (meridional, primeVertical) = Self.radii(at: latitude)
        return (
            latitude + north / meridional * 180 / .pi,
            longitude + east / (primeVertical * cos(latitude * .pi / 180)) * 180 / .pi
        )
    }

    static func radii(at latitude: Double) -> (meridional: Double, primeVertical: Double) {
        let a = 6_378_137.0
        let e2 = 6.694_379_990_14e-3
        let s = sin(latitude * .pi / 180)
        let w = (1 - e2 * s * s).squareRoot()
        return (a * (1 - e2) / (w * w * w), a / w)
    }

    /// A GGA for `seconds` after 12:00:00 with 8 satellites and `hdop`.
    func gga(after seconds: Double, hdop: Double = 1.0) -> String {
        "$GPGGA," + timeAndPosition(after: seconds) + String(format: ",1,08,%.1f,12.0,M,47.0,M,,", hdop)
    }

    /// An RMC for `seconds` after 12:00:00 that reports `knots` and `course` of its own.
    func rmc(after seconds: Double, knots: Double, course: Double) -> String {
        let fields = timeAndPosition(after: seconds).split(separator: ",", omittingEmptySubsequences: false)
        return "$GPRMC,\(fields[0]),A,\(fields[1...4].joined(separator: ","))," + String(format: "%.1f,%.1f,150624,,,A", knots, course)
    }

    /// `hhmmss.ss,ddmm.mmmmmmm,N,dddmm.mmmmmmm,E`, with the 7 decimal places of minutes
    /// high-precision receivers print.
    private func timeAndPosition(after seconds: Double) -> String {
        var (latitude, longitude) = position(after: seconds)
        if longitude > 180 { longitude -= 360 }
        let whole = Int(seconds)
        let time = String(format: "1200%02d.%02d", whole, Int(((seconds - Double(whole)) * 100).rounded()))
        return String(
            format: "%@,%@,%@,%@,%@", time,
            Self.minutes(abs(latitude), degreeDigits: 2), latitude < 0 ? "S" : "N",
            Self.minutes(abs(longitude), degreeDigits: 3), longitude < 0 ? "W" : "E")
    }

    static func minutes(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        return String(format: "%0\(degreeDigits)d%010.7f", whole, (degrees - Double(whole)) * 60)
    }
}

/// Decodes the lines as one stream and returns the locations of its epochs.
func decodeLocations(_ lines: [String], date: CivilDate = CivilDate(year: 2024, month: 6, day: 15)) -> [Location?] {
    var decoder = NMEADecoder()
    decoder.seedDate(date)
    var fixes: [Fix] = []
    let bytes = Array(lines.map(withChecksum).joined().utf8)
    bytes.withUnsafeBufferPointer { decoder.decode($0) { fixes.append($0) } }
    decoder.finish { fixes.append($0) }
    return fixes.map { Location(fix: $0, isSimulated: false) }
}

@Suite("Speed and course derived from positions")
struct VelocityDeriverTests {
    @Test("a GGA-only receiver gets speed and course from successive positions, marked derived",
          arguments: [(12.0, 0.0), (12.0, 60.0), (25.0, 225.0), (8.0, 359.0)])
    func ggaOnly(speed: Double, course: Double) throws {
        let track = StraightTrack(speed: speed, course: course)
        let locations = decodeLocations((0..<4).map { track.gga(after: Double($0)) })
        #expect(locations.count == 4)
        let first = try #require(locations[0])
        #expect(first.speed < 0)
        #expect(!first.isVelocityDerived)
        for location in locations.dropFirst() {
            let location = try #require(location)
            #expect(location.isVelocityDerived)
            // The positions are printed to 1e-7 minutes (under a millimetre).
            #expect(abs(location.speed - speed) < 0.005)
            let courseError = abs(location.course - course)
            #expect(min(courseError, 360 - courseError) < 0.05)
            // HDOP 1 × 4 m for each position, one second apart.
            #expect(abs(location.speedAccuracy - (2 * 4.0 * 4.0).squareRoot()) < 1e-9)
            #expect(abs(location.courseAccuracy - atan(location.speedAccuracy / location.speed) * 180 / .pi) < 0.02)
        }
    }

    @Test("the errors follow the positions' accuracies and the interval (5 Hz, poor HDOP)")
    func accuracyPropagation() throws {
        let track = StraightTrack(speed: 30, course: 90)
        let lines = [track.gga(after: 0, hdop: 2.0), track.gga(after: 0.2, hdop: 3.0)]
        let location = try #require(decodeLocations(lines).last ?? nil)
        #expect(abs(location.speed - 30) < 0.01)
        #expect(abs(location.speedAccuracy - (8.0 * 8.0 + 12.0 * 12.0).squareRoot() / 0.2) < 1e-6)
        // 72 m/s of error against 30 m/s of speed: the direction is noise, so no course.
        #expect(location.course == -1)
        #expect(location.courseAccuracy == -1)
        #expect(location.isVelocityDerived)
    }

    @Test("a receiver's own speed and course are never replaced; an epoch that lost its RMC is derived")
    func lostRMC() throws {
        let track = StraightTrack(speed: 15, course: 30)
        var lines: [String] = []
        for second in 0..<4 {
            let gga = track.gga(after: Double(second))
            lines.append(gga)
            // The receiver's RMC says 10 knots at 31.5°; the second epoch's RMC is lost.
            if second != 2 {
                lines.append(track.rmc(after: Double(second), knots: 10, course: 31.5))
            }
        }
        let locations = try decodeLocations(lines).map { try #require($0) }
        #expect(locations.map(\.isVelocityDerived) == [false, false, true, false])
        #expect(abs(locations[1].speed - 10 * 1852 / 3600) < 1e-9)
        #expect(locations[1].course == 31.5)
        #expect(abs(locations[2].speed - 15) < 0.005)
    }

    @Test("no derivation across a long gap, a time that goes backwards or an epoch without a fix")
    func bounds() throws {
        let track = StraightTrack(speed: 20, course: 10)
        let gap = decodeLocations([track.gga(after: 0), track.gga(after: 3.5)])
        #expect(try #require(gap.last ?? nil).speed == -1)
        let backwards = decodeLocations([track.gga(after: 5), track.gga(after: 4)])
        #expect(try #require(backwards.last ?? nil).speed == -1)
        let afterNoFix = decodeLocations([
            track.gga(after: 0), "$GPGGA,120001.00,,,,,0,00,,,M,,M,,", track.gga(after: 2),
        ])
        #expect(try #require(afterNoFix.last ?? nil).speed == -1)
        let withinBound = decodeLocations([track.gga(after: 0), track.gga(after: 3)])
        #expect(abs(try #require(withinBound.last ?? nil).speed - 20) < 0.005)
    }

    @Test("positions that disagree faster than a receiver may report (1,000 knots) derive nothing (a jump across the globe gave 17,000 km/s)")
    func noSpeedBeyondWhatReceiversReport() throws {
        let here = StraightTrack(speed: 0, course: 0)
        let farAway = StraightTrack(latitude: -33.9, longitude: 151.2, speed: 0, course: 0)
        let jump = decodeLocations([here.gga(after: 0), farAway.gga(after: 1)])
        #expect(try #require(jump.last ?? nil).speed == -1)
        let jet = StraightTrack(speed: 250, course: 90)
        let fast = decodeLocations([jet.gga(after: 0), jet.gga(after: 1)])
        #expect(abs(try #require(fast.last ?? nil).speed - 250) < 0.01)
    }

    @Test("a negative speed or a course outside 0 … 360 is no speed or course (they were passed on as reported)")
    func speedAndCourseOutOfRange() throws {
        let track = StraightTrack(speed: 0, course: 0)
        for (knots, course) in [(-5.0, 10.0), (5.0, -10.0), (5.0, 720.0)] {
            let location = try #require(decodeLocations([track.gga(after: 0), track.rmc(after: 0, knots: knots, course: course)]).last ?? nil)
            #expect((location.speed >= 0) == (knots >= 0), "\(knots) kn")
            #expect((location.course >= 0) == (0...360).contains(course), "\(course)°")
        }
        let north = try #require(decodeLocations([track.gga(after: 0), track.rmc(after: 0, knots: 5, course: 360)]).last ?? nil)
        #expect(north.course == 0)
    }

    @Test("an altitude below −1,000 m or above 100 km, or a geoid separation beyond ±200 m, is none (−99999 m was passed on)")
    func altitudeOutOfRange() throws {
        let track = StraightTrack(speed: 0, course: 0)
        let cases: [(printed: String, separation: String, altitude: Double?, ellipsoidal: Double?)] = [
            ("12.0", "47.0", 12, 59), ("-430.5", "20.0", -430.5, -410.5), ("49000.0", "-30.0", 49_000, 48_970),
            ("-99999.0", "47.0", nil, nil), ("150000.0", "47.0", nil, nil), ("12.0", "999.0", 12, 12),
        ]
        for (altitude, separation, expected, ellipsoidal) in cases {
            let gga = track.gga(after: 0).replacingOccurrences(of: ",12.0,M,47.0,M,", with: ",\(altitude),M,\(separation),M,")
            let location = try #require(decodeLocations([gga]).last ?? nil)
            #expect((location.verticalAccuracy >= 0 ? location.altitude : nil) == expected, "\(altitude) m")
            #expect((location.verticalAccuracy >= 0 ? location.ellipsoidalAltitude : nil) == ellipsoidal, "\(altitude) m, \(separation) m")
        }
    }

    @Test("across the antimeridian the displacement is the short way round")
    func antimeridian() throws {
        let track = StraightTrack(longitude: 179.99995, speed: 10, course: 90)
        let locations = decodeLocations((0..<3).map { track.gga(after: Double($0)) })
        let last = try #require(locations.last ?? nil)
        #expect(last.longitude < 0)
        #expect(abs(last.speed - 10) < 0.005)
        #expect(abs(last.course - 90) < 0.05)
    }
}
