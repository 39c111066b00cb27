import Testing
import WaymarkLocation
@testable import WaymarkMonitoring

@Suite("Visits: arrivals and departures from stillness")
struct VisitDetectorTests {
    @Test("a red light is not a visit")
    func redLight() {
        var detector = VisitDetector()
        var visits = detector.handle(.stationaryStarted(Geometry.date(0)))
        for second in stride(from: 0.0, through: 90, by: 10) {
            visits += detector.handle(.location(Geometry.fix(east: 0, accuracy: 5, at: second)))
        }
        visits += detector.handle(.tick(Geometry.date(100)))
        visits += detector.handle(.stationaryEnded(Geometry.date(100)))
        #expect(visits.isEmpty)
        #expect(detector.arrivalDue == nil)
    }

    @Test("a stay of 5 min or more: an arrival at the dwell, a departure at the end")
    func stay() throws {
        var detector = VisitDetector()
        #expect(detector.handle(.stationaryStarted(Geometry.date(60))).isEmpty)
        #expect(detector.arrivalDue == Geometry.date(360))
        var jitter = Jitter(seed: 3)
        var visits: [Visit] = []
        for second in stride(from: 60.0, through: 300, by: 30) {
            visits += detector.handle(.location(Geometry.fix(east: 40 + 3 * jitter.next(), north: 3 * jitter.next(), accuracy: 5, at: second)))
        }
        #expect(visits.isEmpty)
        visits += detector.handle(.tick(Geometry.date(360)))
        let arrival = try #require(visits.first)
        #expect(arrival.arrivalDate == Geometry.date(60) && arrival.departureDate == nil)
        #expect(abs(arrival.longitude * Geometry.semiMajorAxis * .pi / 180 - 40) < 3)
        #expect(abs(arrival.latitude) * Geometry.metresPerDegreeNorth < 3)
        #expect(arrival.horizontalAccuracy >= 5 && arrival.horizontalAccuracy < 6)
        #expect(detector.arrivalDue == nil)
        #expect(detector.handle(.tick(Geometry.date(400))).isEmpty)
        let departure = detector.handle(.stationaryEnded(Geometry.date(3_600)))
        #expect(departure.count == 1)
        #expect(departure.first?.arrivalDate == Geometry.date(60))
        #expect(departure.first?.departureDate == Geometry.date(3_600))
        #expect(departure.first?.latitude == arrival.latitude)
    }

    @Test("the centre weights each fix by 1/accuracy²; the accuracy includes the scatter")
    func weighting() throws {
        var detector = VisitDetector()
        _ = detector.handle(.stationaryStarted(Geometry.date(0)))
        _ = detector.handle(.location(Geometry.fix(east: 0, accuracy: 5, at: 1)))
        _ = detector.handle(.location(Geometry.fix(east: 10, accuracy: 10, at: 2)))
        let visit = try #require(detector.handle(.tick(Geometry.date(300))).first)
        // (0 / 25 + 10 / 100) / (1 / 25 + 1 / 100) = 2 m east.
        #expect(abs(visit.longitude * Geometry.semiMajorAxis * .pi / 180 - 2) < 1e-3)
        // Typical accuracy √(2 / 0.05) = 6.32 m; scatter √((0.04·4 + 0.01·64) / 0.05) = 4 m.
        #expect(abs(visit.horizontalAccuracy - (2 / 0.05).squareRoot()) < 1e-3)
    }

    @Test("with the receiver asleep all along, the last fix before the stop stands for the place if recent")
    func arrivalFix() throws {
        var detector = VisitDetector()
        _ = detector.handle(.location(Geometry.fix(east: 7, accuracy: 8, at: 880)))
        _ = detector.handle(.stationaryStarted(Geometry.date(1_000)))
        let visit = try #require(detector.handle(.tick(Geometry.date(1_300))).first)
        #expect(abs(visit.longitude * Geometry.semiMajorAxis * .pi / 180 - 7) < 1e-3)
        #expect(visit.horizontalAccuracy == 8)

        var stale = VisitDetector()
        _ = stale.handle(.location(Geometry.fix(east: 7, accuracy: 8, at: 879)))
        _ = stale.handle(.stationaryStarted(Geometry.date(1_000)))
        #expect(stale.handle(.tick(Geometry.date(1_300))).isEmpty)
        #expect(stale.handle(.stationaryEnded(Geometry.date(2_000))).isEmpty)
    }

    @Test("a late timer: arrival and departure together at the end")
    func lateTimer() {
        var detector = VisitDetector()
        _ = detector.handle(.stationaryStarted(Geometry.date(0)))
        _ = detector.handle(.location(Geometry.fix(east: 0, accuracy: 5, at: 10)))
        let visits = detector.handle(.stationaryEnded(Geometry.date(900)))
        #expect(visits.map(\.departureDate) == [nil, Geometry.date(900)])
    }

    @Test("across the antimeridian the centre stays at 180°")
    func antimeridian() throws {
        var detector = VisitDetector()
        _ = detector.handle(.stationaryStarted(Geometry.date(0)))
        _ = detector.handle(.location(Geometry.fix(latitude: 10, longitude: 179.9999, accuracy: 5, at: 1)))
        _ = detector.handle(.location(Geometry.fix(latitude: 10, longitude: -179.9999, accuracy: 5, at: 2)))
        let visit = try #require(detector.handle(.tick(Geometry.date(300))).first)
        #expect(abs(abs(visit.longitude) - 180) < 1e-6)
        #expect(abs(visit.latitude - 10) < 1e-9)
    }

    @Test("hostile inputs: unusable fixes ignored, ends without starts, repeated starts, extreme dates")
    func hostile() throws {
        var detector = VisitDetector()
        #expect(detector.handle(.stationaryEnded(Geometry.date(0))).isEmpty)
        _ = detector.handle(.stationaryStarted(Timestamp(nanosecondsSinceEpoch: .max - 5)))
        #expect(detector.arrivalDue == Timestamp(nanosecondsSinceEpoch: .max))
        _ = detector.handle(.stationaryEnded(Timestamp(nanosecondsSinceEpoch: .min)))
        _ = detector.handle(.stationaryStarted(Geometry.date(0)))
        _ = detector.handle(.stationaryStarted(Geometry.date(200)))
        #expect(detector.arrivalDue == Geometry.date(300))
        for accuracy in [Double.nan, -1, 0, .infinity, 1e6] {
            _ = detector.handle(.location(Geometry.fix(east: 5_000, accuracy: accuracy, at: 10)))
        }
        _ = detector.handle(.location(Geometry.fix(latitude: .nan, longitude: 0, accuracy: 5, at: 11)))
        #expect(detector.handle(.tick(Geometry.date(301))).isEmpty)
        // The first usable fix after the dwell brings the arrival; absurdly fine accuracies stay finite.
        let arrival = try #require(detector.handle(.location(Geometry.fix(east: 1, accuracy: 1e-300, at: 302))).first)
        #expect(arrival.arrivalDate == Geometry.date(0))
        _ = detector.handle(.location(Geometry.fix(east: 3, accuracy: 1e-300, at: 303)))
        let departure = try #require(detector.handle(.stationaryEnded(Geometry.date(304))).first)
        #expect(departure.longitude.isFinite && departure.horizontalAccuracy.isFinite && departure.horizontalAccuracy > 0)
    }
}
