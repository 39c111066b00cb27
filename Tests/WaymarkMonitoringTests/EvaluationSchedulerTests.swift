import Testing
import WaymarkClock
import WaymarkLocation
@testable import WaymarkMonitoring

@Suite("Monitor: when the next fix is needed")
struct EvaluationSchedulerTests {
    let start = Instant(nanoseconds: 1_000_000_000_000)

    func monitor(radii: [Double]) throws -> Monitor {
        var monitor = try #require(Monitor(name: "m"))
        for (number, radius) in radii.enumerated() {
            _ = try monitor.add(Geometry.region(radius: radius), identifier: "c\(number)", at: Geometry.date(0))
        }
        return monitor
    }

    func wait(east: Double, accuracy: Double = 10, radii: [Double], travel: TravelMode) throws -> Double? {
        let fix = Geometry.fix(east: east, accuracy: accuracy, at: 0)
        let next = EvaluationScheduler.nextFix(
            after: fix, at: start, watching: [try monitor(radii: radii)], travel: travel)
        return next.map { ($0 - start).seconds }
    }

    @Test("the time to reach the nearest border at the travel mode's top speed")
    func margin() throws {
        // 1,160 m from the centre of a 100 m circle, 10 m accuracy: 1,050 m from any crossing.
        let walking = try #require(try wait(east: 1_160, radii: [100], travel: .walking))
        let cycling = try #require(try wait(east: 1_160, radii: [100], travel: .cycling))
        let driving = try #require(try wait(east: 1_160, radii: [100], travel: .driving))
        #expect(abs(walking - 350) < 1e-6 && abs(cycling - 87.5) < 1e-6 && abs(driving - 25) < 1e-6)
        // Inside a 1 km circle at its centre: 990 m from the border.
        let inside = try #require(try wait(east: 0, radii: [1_000], travel: .walking))
        #expect(abs(inside - 330) < 1e-6)
        // The nearest border counts: 2,000 m outside one, 300 m inside another (290 m).
        let nearest = try #require(try wait(east: 2_100, radii: [100, 2_400], travel: .walking))
        #expect(abs(nearest - 290.0 / 3) < 1e-6)
    }

    @Test("bounded: 1 s near a border or without a usable accuracy, 10 min far from every border")
    func bounds() throws {
        #expect(try wait(east: 100_000, radii: [100], travel: .walking) == 600)
        #expect(try wait(east: 105, radii: [100], travel: .driving) == 1)
        #expect(try wait(east: 95, radii: [100], travel: .walking) == 1)
        for accuracy in [-1, 0, .nan, 2_000] {
            #expect(try wait(east: 5_000, accuracy: accuracy, radii: [100], travel: .walking) == 1)
        }
    }

    @Test("no fix with nothing watched, or after the timeline's end")
    func noFix() throws {
        let fix = Geometry.fix(east: 120, accuracy: 5, at: 0)
        let watched = try monitor(radii: [100])
        #expect(EvaluationScheduler.nextFix(after: fix, at: start, watching: [], travel: .driving) == nil)
        var beacons = try #require(Monitor(name: "b"))
        _ = try beacons.add(.beaconIdentity, identifier: "b", at: Geometry.date(0))
        #expect(EvaluationScheduler.nextFix(after: fix, at: start, watching: [beacons], travel: .walking) == nil)
        let late = Instant(nanoseconds: .max - 10)
        #expect(EvaluationScheduler.nextFix(after: fix, at: late, watching: [watched], travel: .walking) == Instant(nanoseconds: .max))
    }
}
