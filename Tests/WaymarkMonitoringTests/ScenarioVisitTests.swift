import Foundation
import Testing
import WaymarkClock
import WaymarkLocation
import WaymarkSimulation
@testable import WaymarkMonitoring

/// Visits on the shipped scenarios: their still stretches are known truth.
@Suite("Visits on the shipped scenarios")
struct ScenarioVisitTests {
    static let names = ["desk-day", "commute", "hike", "flight", "demo", "full-day", "holiday", "courier", "road-trip"]
    static let step = Duration.seconds(5)

    /// The truth's still stretches, from the start to the end of the scenario.
    static func stillStretches(of trajectory: Trajectory) -> [Range<Instant>] {
        var stretches: [Range<Instant>] = []
        var from = Instant.zero
        for moving in trajectory.movingIntervals {
            if moving.lowerBound > from { stretches.append(from..<moving.lowerBound) }
            from = moving.upperBound
        }
        if trajectory.end > from { stretches.append(from..<trajectory.end) }
        return stretches
    }

    /// The detector fed with the truth's stillness (sampled every 5 s), a fix every 5 s while
    /// moving and for the first 30 s of each stillness (then the receiver sleeps), 5 m accurate
    /// with ±3 m of noise, and its timer.
    static func visits(of trajectory: Trajectory) -> [Visit] {
        var detector = VisitDetector()
        var jitter = Jitter(seed: 11)
        var visits: [Visit] = []
        var stillSince: Instant?
        var instant = Instant.zero
        while instant <= trajectory.end {
            let truth = trajectory.truth(at: instant)
            let date = trajectory.utc(at: instant)
            if truth.isMoving, stillSince != nil {
                visits += detector.handle(.stationaryEnded(date))
                stillSince = nil
            } else if !truth.isMoving, stillSince == nil {
                visits += detector.handle(.stationaryStarted(date))
                stillSince = instant
            }
            if stillSince.map({ instant - $0 <= .seconds(30) }) ?? true {
                let metres = 111_000.0
                let fix = Geometry.fix(
                    latitude: truth.position.latitude + 3 * jitter.next() / metres,
                    longitude: truth.position.longitude + 3 * jitter.next() / metres, accuracy: 5,
                    at: date.secondsSinceEpoch - Geometry.date(0).secondsSinceEpoch)
                visits += detector.handle(.location(fix))
            }
            if let due = detector.arrivalDue, due <= date { visits += detector.handle(.tick(date)) }
            instant = instant + step
        }
        return visits
    }

    @Test("one arrival per still stretch of 5 min or more, a departure when it ends, at the place", arguments: names)
    func scenario(_ name: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/\(name).scenario").path
        let scenario = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), file: "\(name).scenario")
        let trajectory = Trajectory(scenario: scenario, seed: 1)
        let stretches = Self.stillStretches(of: trajectory)
        // No stretch so close to the dwell that 5 s sampling could decide it either way.
        #expect(!stretches.contains { abs(($0.upperBound - $0.lowerBound).seconds - 300) <= 10 })
        let stays = stretches.filter { $0.upperBound - $0.lowerBound > VisitDetector.minimumDwell }
        let visits = Self.visits(of: trajectory)
        let arrivals = visits.filter { $0.departureDate == nil }
        let departures = visits.filter { $0.departureDate != nil }
        #expect(arrivals.count == stays.count)
        #expect(departures.count == stays.count(where: { $0.upperBound < trajectory.end }))
        for (stay, arrival) in zip(stays, arrivals) {
            #expect(abs(arrival.arrivalDate.secondsSinceEpoch - trajectory.utc(at: stay.lowerBound).secondsSinceEpoch) <= 5)
            let place = trajectory.truth(at: stay.lowerBound + (stay.upperBound - stay.lowerBound) / 2).position
            let truth = Geometry.fix(latitude: place.latitude, longitude: place.longitude, accuracy: 1, at: 0)
            let centre = Geometry.fix(latitude: arrival.latitude, longitude: arrival.longitude, accuracy: 1, at: 0)
            #expect(centre.distance(from: truth) < arrival.horizontalAccuracy)
        }
        for (stay, departure) in zip(stays, departures) {
            let left = try #require(departure.departureDate).secondsSinceEpoch
            #expect(abs(left - trajectory.utc(at: stay.upperBound).secondsSinceEpoch) <= 5)
        }
    }
}
